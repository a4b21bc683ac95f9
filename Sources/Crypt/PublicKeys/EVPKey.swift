import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` (a private key, or a public key built from its parameters) and
/// frees it. Shared by JOSE (JWS keys) and WebAuthn (COSE keys), so both call OpenSSL one way.
///
/// `@unchecked Sendable`: OpenSSL 3 documents an `EVP_PKEY` as safe to use from several
/// threads at once for operations that do not change it (signing and verifying each make
/// their own context); nothing here changes it after construction.
public final class EVPKey: @unchecked Sendable {
    public let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    public init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The kinds of key `generate` makes.
    public enum Kind: Sendable {
        case rsa(bits: Int32)
        case p256
        case ed25519
    }

    /// A fresh private key from OpenSSL's provider keygen (`EVP_PKEY_CTX_new_from_name`, not the
    /// deprecated `RSA_*`/`EC_KEY_*`); RSA keys use exponent 65537.
    public static func generate(_ kind: Kind) throws(OpenSSLError) -> EVPKey {
        let name = switch kind {
        case .rsa: "RSA"
        case .p256: "EC"
        case .ed25519: "ED25519"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { throw .failed("EVP_PKEY_CTX_new_from_name") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw .failed("EVP_PKEY_keygen_init") }
        let configured = switch kind {
        case .rsa(let bits): EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits)
        case .p256: EVP_PKEY_CTX_set_group_name(context, "P-256")
        case .ed25519: Int32(1)
        }
        guard configured == 1 else { throw .failed("keygen parameters") }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw .failed("EVP_PKEY_generate") }
        return EVPKey(owning: key)
    }

    /// The private key in OpenSSL's traditional DER (PKCS #1 RSAPrivateKey, SEC 1 ECPrivateKey).
    public func privateDER() throws(OpenSSLError) -> [UInt8] {
        let length = i2d_PrivateKey(pointer, nil)
        guard length > 0 else { throw .failed("i2d_PrivateKey") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress  // i2d advances it past what it wrote
            return i2d_PrivateKey(pointer, &cursor)
        }
        guard written == length else { throw .failed("i2d_PrivateKey") }
        return der
    }

    /// True when the key is of OpenSSL's `type` ("RSA", "EC", "ED25519").
    public func isA(_ type: String) -> Bool {
        EVP_PKEY_is_a(pointer, type) == 1
    }

    /// The key's size in bits (the modulus for RSA, the curve for EC).
    public var bits: Int {
        Int(EVP_PKEY_get_bits(pointer))
    }

    /// The EC curve's OpenSSL name (`prime256v1` for P-256); nil for other keys.
    public var groupName: String? {
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
    public func bigEndian(_ name: String, width: Int? = nil) throws(OpenSSLError) -> [UInt8] {
        var number: OpaquePointer?  // EVP_PKEY_get_bn_param allocates it
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else { throw .failed("EVP_PKEY_get_bn_param(\(name))") }
        defer { BN_free(number) }
        let size = width ?? Int((BN_num_bits(number) + 7) / 8)
        var bytes = [UInt8](repeating: 0, count: size)
        guard BN_bn2binpad(number, &bytes, Int32(size)) == Int32(size) else { throw .failed("BN_bn2binpad(\(name))") }
        return bytes
    }

    /// The raw public key of an Ed25519 key (32 bytes, RFC 8032).
    public func rawPublicKey() throws(OpenSSLError) -> [UInt8] {
        var length = 0
        guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else { throw .failed("EVP_PKEY_get_raw_public_key") }
        var bytes = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(pointer, &bytes, &length) == 1 else { throw .failed("EVP_PKEY_get_raw_public_key") }
        return Array(bytes.prefix(length))
    }
}
