import Crypt
import Logging
import Postgres
import Web

extension TIL {
    /// Compares what the database holds for `admin` with what the configuration says, once at
    /// start (`serve`), because `ADMIN_PASSWORD` only seeds and a newcomer may not know it.
    ///
    /// In production the server refuses to start while the stored hash still verifies the
    /// book's `password` (whatever `ADMIN_PASSWORD` says now). Otherwise, an `ADMIN_PASSWORD`
    /// that does not match gets one warning line saying it is ignored. No admin yet (a schema
    /// not migrated): nothing to compare.
    ///
    /// Each comparison is a bcrypt run at the stored cost, so the common production start (the
    /// admin's password is `ADMIN_PASSWORD`, which production never lets be the book's) costs one.
    public func checkStoredAdminPassword() async throws {
        guard let admin = try await storedAdmin() else { return }
        let builtIn = AppConfiguration.builtInAdminPassword
        var matchesConfigured: Bool?  // nil: ADMIN_PASSWORD unset
        if configuration.adminPasswordIsSet {
            matchesConfigured = try await hasher.verify(configuration.adminPassword, created: admin.passwordHash)
        }
        // A hash that verifies ADMIN_PASSWORD cannot also verify another password.
        let mayBeBuiltIn = matchesConfigured != true || configuration.adminPassword == builtIn
        if configuration.environment == .production, mayBeBuiltIn, try await hasher.verify(builtIn, created: admin.passwordHash) {
            throw ConfigurationError(
                "the admin account still has the built-in password '\(builtIn)': "
                    + "give it another with `til-server users set-password admin`, then start again.")
        }
        if matchesConfigured == false {
            logger.warning("""
                ADMIN_PASSWORD is ignored: it only seeds a new admin account, and the admin exists with another password \
                (change that with `til-server users set-password admin`).
                """)
        }
    }

    private func storedAdmin() async throws -> User? {
        do {
            return try await UserRepository(db: db).find(username: "admin")
        } catch let error as PostgresError where error.sqlState == .undefinedTable {
            return nil
        }
    }
}
