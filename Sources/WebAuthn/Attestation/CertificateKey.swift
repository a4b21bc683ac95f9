import COpenSSL
import Crypt

/// The subject public key of a DER X.509 certificate (packed attestation's x5c leaf), read by
/// OpenSSL. Nothing about the certificate is trusted; only its key is used.
enum CertificateKey {
    static func publicKey(ofDER der: [UInt8]) throws(WebAuthnError) -> EVPKey {
        let certificate = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {  // bytes after the certificate
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let certificate else {
            ERR_clear_error()
            throw .attestationInvalid("x5c's first certificate is not DER X.509")
        }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else {  // a new reference, owned by EVPKey
            ERR_clear_error()
            throw .attestationInvalid("x5c's certificate has no usable public key")
        }
        return EVPKey(owning: key)
    }
}
