import COpenSSL

/// Signatures with `EVP_DigestSign`/`EVP_DigestVerify`: SHA-256 with PKCS #1 v1.5 for RSA keys
/// (RS256) and DER ECDSA for EC keys (ES256); Ed25519 (EdDSA) signs the message itself, with
/// no digest (OpenSSL's one-shot mode, `digest: .none`).
extension EVPKey {
    /// The digest a signature is made over.
    public enum Digest: Sendable {
        case sha256
        /// Ed25519 hashes internally (RFC 8032): the message is passed whole.
        case none

        fileprivate var md: OpaquePointer? {
            switch self {
            case .sha256: EVP_sha256()
            case .none: nil
            }
        }
    }

    public func sign(_ message: [UInt8], digest: Digest) throws(OpenSSLError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .failed("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, digest.md, nil, pointer) == 1 else { throw .failed("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw .failed("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { throw .failed("EVP_DigestSign") }
        return Array(signature.prefix(length))  // an ECDSA signature may come out shorter than the maximum
    }

    /// True when `signature` is this key's over `message`. A mismatch leaves nothing on
    /// OpenSSL's per-thread error queue, where the TLS code of this thread would find it.
    public func verify(_ signature: [UInt8], over message: [UInt8], digest: Digest) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, digest.md, nil, pointer) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        if !verified { ERR_clear_error() }
        return verified
    }

    public func signSHA256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        try sign(message, digest: .sha256)
    }

    public func verifySHA256(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        verify(signature, over: message, digest: .sha256)
    }
}
