import Crypt

/// A confidential client's secret: 256 bits from OpenSSL, shown once at registration, stored
/// only as its SHA-256 digest. Unguessable, so a fast digest is enough (bcrypt guards
/// guessable passwords), and it is compared in constant time.
struct ClientSecret: Sendable {
    let value: String
    var digest: String { SHA256.hex(of: value) }

    static func generate() -> ClientSecret { ClientSecret(value: SecureRandom.token()) }

    /// True when `sent` is the secret `digest` was made from. Overlong input is nobody's.
    static func matches(_ sent: String, digest: String) -> Bool {
        guard sent.utf8.count <= 256 else { return false }
        return ConstantTime.equals(SHA256.hex(of: sent), digest)
    }
}
