public import Web

/// Where the admin password comes from, and where the book's default may be used.
///
/// `ADMIN_PASSWORD`, checked by `PasswordRules`, is required outside development and testing.
/// Those two fall back to the book's `password`, which every reader knows: `til-server serve`
/// refuses it on any address but loopback (`checkAdminPassword(servingOn:)`), whatever the
/// environment, so it can never answer logins from another machine.
extension AppConfiguration {
    /// The environments TIL knows; `load` refuses any other name (a typo must not start).
    public static let knownEnvironments: [Environment] = [.development, .testing, .production]

    /// The book's admin password, for development and testing when `ADMIN_PASSWORD` is unset.
    public static let builtInAdminPassword = "password"

    /// True when the admin password is the book's, even when set explicitly.
    public var usesBuiltInAdminPassword: Bool { adminPassword == Self.builtInAdminPassword }

    /// Throws unless the admin password may be served on `host`: the built-in one only on a
    /// loopback address.
    public func checkAdminPassword(servingOn host: String) throws {
        guard usesBuiltInAdminPassword, !Self.isLoopback(host) else { return }
        throw ConfigurationError(
            "Refusing to serve on \(host) with the built-in admin password '\(Self.builtInAdminPassword)': "
                + "set ADMIN_PASSWORD (\(Self.passwordBytes)), or serve on 127.0.0.1.")
    }

    /// `ADMIN_PASSWORD`, or the built-in one in development and testing. An unknown
    /// environment is refused here: it would be unclear which of these rules it gets.
    static func adminPassword(environment: Environment, from variables: [String: String]) throws -> String {
        guard knownEnvironments.contains(environment) else {
            throw ConfigurationError("ENVIRONMENT must be development, testing or production, not '\(environment)'.")
        }
        guard let password = variables["ADMIN_PASSWORD"], !password.isEmpty else {
            guard environment == .development || environment == .testing else {
                throw ConfigurationError(
                    "ADMIN_PASSWORD must be set in \(environment) (the admin account's password; \(passwordBytes)).")
            }
            return builtInAdminPassword
        }
        do {
            try PasswordRules.validate(password, field: "ADMIN_PASSWORD")
        } catch let error as any AbortError {
            throw ConfigurationError(error.reason)
        }
        return password
    }

    /// `127.0.0.0/8`, `::1` or `localhost`: only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        if ["localhost", "::1", "[::1]"].contains(host.lowercased()) { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    private static var passwordBytes: String {
        "\(PasswordRules.byteCount.lowerBound) to \(PasswordRules.byteCount.upperBound) bytes"
    }
}
