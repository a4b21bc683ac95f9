import COpenSSL

/// Encryption at rest for secrets TIL keeps in PostgreSQL (signing keys; TOTP secrets next):
/// AES-256-GCM under a key HKDF-SHA256 derives from `SECRET_KEY` for one purpose, so a key
/// for one kind of row opens no other kind.
///
/// A sealed value is `version (1) ‖ nonce (12, random) ‖ ciphertext ‖ tag (16)`. The
/// associated data binds it to its row (a kid, a user id): copied into another row, it does
/// not open. A random 96-bit nonce is safe for far more values than TIL will ever seal under
/// one key (NIST SP 800-38D's 2³² limit).
public struct AtRestCipher: Sendable {
    /// The layout's version; a later one (another cipher) gets a new number.
    static let version: UInt8 = 1
    static let nonceSize = 12
    static let tagSize = 16

    private let key: [UInt8]

    /// The cipher for `purpose`, a fixed label such as "til signing keys v1".
    public init(secret: SecretKey, purpose: String) {
        key = secret.derivedKey(purpose: purpose)
    }

    /// Why a sealed value did not open: the wrong `SECRET_KEY`, another row's value, or bytes
    /// changed or cut. AES-GCM cannot tell these apart, and says nothing more.
    public struct OpenFailure: Error, Equatable, Sendable {}

    public func seal(_ plaintext: [UInt8], binding associatedData: [UInt8]) -> [UInt8] {
        let nonce = SecureRandom.bytes(count: Self.nonceSize)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: Self.tagSize)
        let sealed = withContext { context in
            var length: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: 16)  // GCM's final step writes no bytes
            return EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1
                && EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1
                && EVP_EncryptFinal_ex(context, &scratch, &length) == 1
                && EVP_CIPHER_CTX_ctrl(context, copenssl_EVP_CTRL_GCM_GET_TAG, Int32(Self.tagSize), &tag) == 1
        }
        guard sealed else { fatalError("OpenSSL AES-256-GCM encryption failed") }  // allocation only
        return [Self.version] + nonce + ciphertext + tag
    }

    public func open(_ sealed: [UInt8], binding associatedData: [UInt8]) throws(OpenFailure) -> [UInt8] {
        let header = 1 + Self.nonceSize
        guard sealed.count >= header + Self.tagSize, sealed[0] == Self.version else { throw OpenFailure() }
        let nonce = Array(sealed[1..<header])
        let ciphertext = Array(sealed[header..<(sealed.count - Self.tagSize)])
        var tag = Array(sealed.suffix(Self.tagSize))
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let opened = withContext { context in
            var length: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: 16)
            return EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1
                && EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
                && EVP_CIPHER_CTX_ctrl(context, copenssl_EVP_CTRL_GCM_SET_TAG, Int32(Self.tagSize), &tag) == 1
                && EVP_DecryptFinal_ex(context, &scratch, &length) == 1  // checks the tag; GCM writes no bytes here
        }
        guard opened else {
            ERR_clear_error()
            throw OpenFailure()
        }
        return plaintext
    }

    /// Runs `body` with a fresh cipher context, freed afterwards.
    private func withContext(_ body: (OpaquePointer) -> Bool) -> Bool {
        guard let context = EVP_CIPHER_CTX_new() else { return false }
        defer { EVP_CIPHER_CTX_free(context) }
        return body(context)
    }
}
