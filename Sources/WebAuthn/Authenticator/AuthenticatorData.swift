/// Authenticator data (WebAuthn L3 §6.1): rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)
/// ‖ attested credential data (when AT) ‖ extensions (a CBOR map, when ED). Parsing checks
/// that the flags say exactly what follows, and that nothing else does.
public struct AuthenticatorData: Sendable {
    public let rpIDHash: [UInt8]
    public let flags: AuthenticatorFlags
    public let signCount: UInt32
    public let attestedCredential: AttestedCredentialData?
    public let extensions: CBORValue?

    /// The fixed part: 32 + 1 + 4 bytes.
    static let headerLength = 37

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= Self.headerLength else { throw .malformed("authenticator data shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = bytes[Self.headerLength...]
        if flags.contains(.attestedCredentialData) {
            let (credential, length) = try AttestedCredentialData.parse(rest)
            attestedCredential = credential
            rest = rest.dropFirst(length)
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            do {
                let (value, length) = try CBORDecoder.decodePrefix(rest)
                guard value.entries != nil else { throw WebAuthnError.malformed("extensions are not a CBOR map") }
                extensions = value
                rest = rest.dropFirst(length)
            } catch let error as CBORError {
                throw .cbor(error)
            } catch {
                throw .malformed("extensions are not a CBOR map")
            }
        } else {
            extensions = nil
        }
        guard rest.isEmpty else { throw .malformed("bytes after the authenticator data the flags describe") }
    }
}
