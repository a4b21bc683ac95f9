import COpenSSL

/// SHA-256 signatures with `EVP_DigestSign`/`EVP_DigestVerify`: PKCS #1 v1.5 for RSA keys
/// (RS256), DER ECDSA for EC keys (ES256 converts it, `ECDSASignature`).
extension EVPKey {
    func signSHA256(_ message: [UInt8]) throws(JOSEError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { throw .openSSL("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw .openSSL("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { throw .openSSL("EVP_DigestSign") }
        return Array(signature.prefix(length))  // an ECDSA signature may come out shorter than the maximum
    }

    /// True when `signature` is this key's over `message`. A mismatch leaves nothing on
    /// OpenSSL's per-thread error queue, where the TLS code of this thread would find it.
    func verifySHA256(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        if !verified { ERR_clear_error() }
        return verified
    }
}
