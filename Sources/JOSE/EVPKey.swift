import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` (a private key, or a public key from a JWK) and frees it.
///
/// `@unchecked Sendable`: OpenSSL 3 documents an `EVP_PKEY` as safe to use from several
/// threads at once for operations that do not change it (signing and verifying each make
/// their own context); nothing here changes it after construction.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh key for `algorithm`: RSA 2048 (exponent 65537) or P-256, from OpenSSL's
    /// provider keygen (`EVP_PKEY_CTX_new_from_name`, not the deprecated `RSA_*`/`EC_KEY_*`).
    static func generate(for algorithm: JWSAlgorithm) throws(JOSEError) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm.keyType, nil) else { throw .openSSL("EVP_PKEY_CTX_new_from_name") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw .openSSL("EVP_PKEY_keygen_init") }
        let configured = switch algorithm {
        case .rs256: EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048)
        case .es256: EVP_PKEY_CTX_set_group_name(context, "P-256")
        }
        guard configured == 1 else { throw .openSSL("keygen parameters") }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw .openSSL("EVP_PKEY_generate") }
        return EVPKey(owning: key)
    }

    /// The private key in OpenSSL's traditional DER (PKCS #1 RSAPrivateKey, SEC 1 ECPrivateKey).
    func privateDER() throws(JOSEError) -> [UInt8] {
        let length = i2d_PrivateKey(pointer, nil)
        guard length > 0 else { throw .openSSL("i2d_PrivateKey") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress  // i2d advances it past what it wrote
            return i2d_PrivateKey(pointer, &cursor)
        }
        guard written == length else { throw .openSSL("i2d_PrivateKey") }
        return der
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
            guard EVP_PKEY_is_a(pointer, "RSA") == 1, EVP_PKEY_get_bits(pointer) >= 2048 else {
                throw .invalidKey("RS256 needs an RSA key of at least 2048 bits")
            }
        case .es256:
            guard EVP_PKEY_is_a(pointer, "EC") == 1, groupName == "prime256v1" else { throw .invalidKey("ES256 needs a P-256 key") }
        }
    }

    /// The EC curve's OpenSSL name (`prime256v1` for P-256); nil for other keys.
    private var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(pointer, "group", &buffer, buffer.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A big-number parameter of the key (`n`, `e`, `qx`, `qy`) as big-endian bytes, left-padded
    /// with zeros to `width` when given (EC coordinates), minimal otherwise (RSA).
    func bigEndian(_ name: String, width: Int? = nil) throws(JOSEError) -> [UInt8] {
        var number: OpaquePointer?  // EVP_PKEY_get_bn_param allocates it
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else { throw .openSSL("EVP_PKEY_get_bn_param(\(name))") }
        defer { BN_free(number) }
        let size = width ?? Int((BN_num_bits(number) + 7) / 8)
        var bytes = [UInt8](repeating: 0, count: size)
        guard BN_bn2binpad(number, &bytes, Int32(size)) == Int32(size) else { throw .openSSL("BN_bn2binpad(\(name))") }
        return bytes
    }
}
