// libFuzzer entry point for WebAuthn's decoders (see scripts/fuzz-webauthn.sh, `make fuzz`).
// Compiled together with Sources/WebAuthn into one module, outside the package build.

/// Feeds the input to every decoder that reads bytes from a client: the CBOR decoder (whole
/// and as a prefix), the attestation object, authenticator data, a COSE key, clientDataJSON.
/// Any crash, trap or sanitizer report is a finding; the prefix length must also be sane.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthn(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = try? CBORDecoder.decode(bytes)
    if let (value, length) = try? CBORDecoder.decodePrefix(bytes[...]) {
        precondition(length > 0 && length <= bytes.count, "prefix length outside the input")
        precondition((length == bytes.count) == (whole != nil), "whole and prefix decoding disagree")
        if let whole { precondition(whole == value, "whole and prefix decoding disagree") }
    }
    _ = try? AttestationObject(bytes: bytes)
    _ = try? AuthenticatorData(bytes: bytes)
    _ = try? COSEKey(bytes: bytes)
    _ = try? CollectedClientData(json: bytes)
    return 0
}
