public import Crypt
import Web

/// Where `SECRET_KEY` comes from (issue 19). It seals the OpenID Connect signing keys in
/// PostgreSQL (`AtRestCipher`), so every process sharing a database needs the same one, and a
/// lost one makes the stored keys unreadable (`til-server keys` then says so).
///
/// Production requires it for `serve` and `keys`. Testing falls back to a fixed, public key, so
/// every process of a test run opens what another sealed. Development without it generates one
/// once into `.til/secret-key` (relative to the working directory, mode 0600, git-ignored) and
/// reuses it: `make run` restarts keep their signing keys.
extension AppConfiguration {
    /// The testing fallback: public knowledge (it is in this file), so never for production.
    public static let testingSecretKey = SecretKey(text: "746573742d6f6e6c792073656372657420d09fd09e20546f646179204c6561726e")!

    /// Development's generated key file.
    public static let developmentSecretKeyPath = ".til/secret-key"

    /// `SECRET_KEY`, checked; testing's fixed key when unset in testing; nil otherwise.
    static func secretKey(environment: Environment, from reader: ConfigReader) throws(ConfigurationError) -> SecretKey? {
        guard let text = reader.string(.secretKey) else { return environment == .testing ? testingSecretKey : nil }
        guard let key = SecretKey(text: text) else { throw reader.invalid(.secretKey) }
        return key
    }

    /// Makes sure `secretKey` is set, for the commands that open sealed secrets: production
    /// throws without `SECRET_KEY`; development reads or creates `.til/secret-key`.
    public mutating func requireSecretKey() throws(ConfigurationError) {
        guard secretKey == nil else { return }
        guard environment != .production else {
            throw ConfigurationError(
                "SECRET_KEY must be set in production: it encrypts the OpenID Connect signing keys at rest "
                    + "(\(EnvironmentVariable.secretKey.declaration.accepts)). Every process sharing the database needs the same one.")
        }
        secretKey = try SecretKeyFile(path: Self.developmentSecretKeyPath).loadOrCreate()
    }
}
