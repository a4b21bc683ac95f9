import Crypt

/// A confidential client's secret: 256 bits from OpenSSL, shown once at registration, stored
/// only as its SHA-256 digest. Unguessable, so a fast digest is enough (bcrypt guards
/// guessable passwords), and it is compared in constant time
/// (`ClientCredentials.secretDigest` against the stored digest, in `ClientAuthenticator`).
struct ClientSecret: Sendable {
    let value: String
    var digest: String { SHA256.hex(of: value) }

    static func generate() -> ClientSecret { ClientSecret(value: SecureRandom.token()) }
}
