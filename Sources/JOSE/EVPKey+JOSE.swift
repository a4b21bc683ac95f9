import COpenSSL
import Crypt

/// What JOSE asks of Crypt's `EVPKey`: keys of the two JWS algorithms, checked to be of the
/// kind the algorithm signs with.
extension EVPKey {
    /// A fresh key for `algorithm`: RSA 2048 (exponent 65537) or P-256.
    static func generate(for algorithm: JWSAlgorithm) throws(JOSEError) -> EVPKey {
        do {
            return try generate(algorithm == .rs256 ? .rsa(bits: 2048) : .p256)
        } catch {
            throw JOSEError(error)
        }
    }

    /// The key `der` holds, refused unless it is what `algorithm` signs with (RSA of at
    /// least 2048 bits; EC on P-256).
    static func fromPrivateDER(_ der: [UInt8], algorithm: JWSAlgorithm) throws(JOSEError) -> EVPKey {
        let type = algorithm == .rs256 ? copenssl_EVP_PKEY_RSA : copenssl_EVP_PKEY_EC
        let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PrivateKey(type, nil, &cursor, buffer.count)
        }
        guard let decoded else {
            ERR_clear_error()
            throw .invalidKey("not a DER \(algorithm.keyType) private key")
        }
        let key = EVPKey(owning: decoded)
        try key.check(algorithm)
        return key
    }

    /// Throws unless the key is the kind `algorithm` needs.
    func check(_ algorithm: JWSAlgorithm) throws(JOSEError) {
        switch algorithm {
        case .rs256:
            guard isA("RSA"), bits >= 2048 else { throw .invalidKey("RS256 needs an RSA key of at least 2048 bits") }
        case .es256:
            guard isA("EC"), groupName == "prime256v1" else { throw .invalidKey("ES256 needs a P-256 key") }
        }
    }
}

extension JOSEError {
    /// Crypt's key errors in JOSE's terms: a refused value is an invalid key.
    init(_ error: OpenSSLError) {
        switch error {
        case .failed(let call): self = .openSSL(call)
        case .refused(let why): self = .invalidKey(why)
        }
    }
}
