import COpenSSL
import Glibc

/// Builds a public `EVPKey` from its parameters with `OSSL_PARAM_BLD` and `EVP_PKEY_fromdata`
/// (OpenSSL 3's way; the `RSA_set0_key`/`EC_KEY_*` calls are deprecated).
///
/// The builder keeps pointers to what it is given, not copies, until `OSSL_PARAM_BLD_to_param`;
/// the parameter array it makes still points at the key names. So every string and number
/// pushed is owned here and freed only when the builder goes.
public final class PublicKeyBuilder {
    private let builder: OpaquePointer
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var buffers: [UnsafeMutableRawPointer] = []
    private var numbers: [OpaquePointer] = []

    private init() throws(OpenSSLError) {
        guard let builder = OSSL_PARAM_BLD_new() else { throw .failed("OSSL_PARAM_BLD_new") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        strings.forEach { free($0) }
        buffers.forEach { free($0) }
        numbers.forEach { BN_free($0) }
    }

    /// An RSA public key from its modulus and exponent (big-endian, as in a JWK or COSE_Key).
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(OpenSSLError) -> EVPKey {
        let builder = try PublicKeyBuilder()
        try builder.push(number: modulus, as: "n")
        try builder.push(number: exponent, as: "e")
        return try builder.build(type: "RSA")
    }

    /// A P-256 public key from its affine coordinates (32 bytes each).
    public static func p256(x: [UInt8], y: [UInt8]) throws(OpenSSLError) -> EVPKey {
        let builder = try PublicKeyBuilder()
        try builder.push(text: "prime256v1", as: "group")
        try builder.push(octets: [0x04] + x + y, as: "pub")  // SEC 1 uncompressed point
        return try builder.build(type: "EC")
    }

    /// An Ed25519 public key from its 32 raw bytes (RFC 8032 §5.1.5).
    public static func ed25519(_ raw: [UInt8]) throws(OpenSSLError) -> EVPKey {
        guard raw.count == 32 else { throw .refused("an Ed25519 public key is 32 bytes") }
        guard let key = EVP_PKEY_new_raw_public_key(copenssl_EVP_PKEY_ED25519, nil, raw, raw.count) else {
            ERR_clear_error()
            throw .refused("OpenSSL refused the Ed25519 public key")
        }
        return EVPKey(owning: key)
    }

    private func push(number bytes: [UInt8], as name: String) throws(OpenSSLError) {
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw .failed("BN_bin2bn") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, owned(name), number) == 1 else { throw .failed("OSSL_PARAM_BLD_push_BN") }
    }

    private func push(text: String, as name: String) throws(OpenSSLError) {
        guard OSSL_PARAM_BLD_push_utf8_string(builder, owned(name), owned(text), 0) == 1 else {
            throw .failed("OSSL_PARAM_BLD_push_utf8_string")
        }
    }

    private func push(octets: [UInt8], as name: String) throws(OpenSSLError) {
        guard let buffer = malloc(octets.count) else { throw .failed("malloc") }
        buffers.append(buffer)
        octets.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: octets.count) }
        guard OSSL_PARAM_BLD_push_octet_string(builder, owned(name), buffer, octets.count) == 1 else {
            throw .failed("OSSL_PARAM_BLD_push_octet_string")
        }
    }

    /// A C copy of `text` that lives as long as the builder.
    private func owned(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    /// The public key of `type` (`RSA`, `EC`) from what was pushed; refused (not thrown as an
    /// OpenSSL fault) when OpenSSL rejects the values, e.g. a point not on the curve.
    private func build(type: String) throws(OpenSSLError) -> EVPKey {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { throw .failed("OSSL_PARAM_BLD_to_param") }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw .failed("EVP_PKEY_CTX_new_from_name") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, copenssl_EVP_PKEY_PUBLIC_KEY, parameters) == 1, let key
        else {
            ERR_clear_error()
            throw .refused("OpenSSL refused the \(type) public key")
        }
        return EVPKey(owning: key)
    }
}
