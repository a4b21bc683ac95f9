import Web

/// Where the admin password comes from, and where the book's default may be used.
///
/// `ADMIN_PASSWORD` only seeds: the first migration gives it to the `admin` account it
/// creates, and later changes go through `til-server users set-password`. It is required in
/// production by the commands that may seed (and may not be the book's `password` there);
/// development and testing fall back to `password`, which every reader knows, so `serve`
/// refuses it on any address but loopback (`checkAdminPassword(servingOn:)`). At start,
/// `TIL.checkStoredAdminPassword()` looks at what the database actually holds.
extension AppConfiguration {
    /// The book's admin password, for development and testing when `ADMIN_PASSWORD` is unset.
    public static let builtInAdminPassword = "password"

    /// True when the admin password is the book's, even when set explicitly.
    public var usesBuiltInAdminPassword: Bool { adminPassword == Self.builtInAdminPassword }

    /// Throws unless the admin password may be served on `host`: the built-in one only on a
    /// loopback address.
    public func checkAdminPassword(servingOn host: String) throws(ConfigurationError) {
        guard usesBuiltInAdminPassword, !Self.isLoopback(host) else { return }
        throw ConfigurationError(
            "Refusing to serve on \(host) with the built-in admin password '\(Self.builtInAdminPassword)': "
                + "set ADMIN_PASSWORD (\(EnvironmentVariable.adminPassword.declaration.accepts)), or serve on 127.0.0.1.")
    }

    /// `ADMIN_PASSWORD`, checked by `PasswordRules`; unset, the built-in one where that is
    /// allowed (development, testing, or a command that never seeds). The built-in one, common
    /// as it is, is the rules' one exception: it never reaches production.
    static func adminPassword(
        environment: Environment, from reader: ConfigReader, required: Bool
    ) throws(ConfigurationError) -> String {
        let production = environment == .production
        guard let password = reader.string(.adminPassword) else {
            guard production, required else { return builtInAdminPassword }
            throw ConfigurationError(
                "ADMIN_PASSWORD must be set in production: the password of the admin account the first migration creates "
                    + "(\(EnvironmentVariable.adminPassword.declaration.accepts)).")
        }
        do {
            try PasswordRules.validateBytes(of: password, field: "ADMIN_PASSWORD")
        } catch {
            throw reader.invalid(.adminPassword)
        }
        guard !production || password != builtInAdminPassword else {
            throw ConfigurationError("ADMIN_PASSWORD must not be the built-in '\(builtInAdminPassword)' in production.")
        }
        if password != builtInAdminPassword, try PasswordRules(reader: reader).refusesAsCommon(password) {
            throw ConfigurationError(PasswordRules.commonReason(field: "ADMIN_PASSWORD") + " (COMMON_PASSWORD_CHECK=off allows it.)")
        }
        return password
    }

    /// `127.0.0.0/8`, `::1` or `localhost`: only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        if ["localhost", "::1", "[::1]"].contains(host.lowercased()) { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
