import Foundation
import Web

extension AppConfiguration {
    /// The configuration every test suite runs the app with: the process environment (the
    /// Makefile's `DATABASE_URL`) in testing, bcrypt at cost 4, the built-in admin password,
    /// then `settings` on top (`["TOKEN_TTL": "1"]`). Nil without `DATABASE_URL`, so that a
    /// suite can skip instead of failing when run outside `make test`.
    package static func forTests(settings: [String: String] = [:]) throws -> AppConfiguration? {
        var variables = ProcessInfo.processInfo.environment
        guard variables["DATABASE_URL"] != nil else { return nil }
        variables["ENVIRONMENT"] = "testing"
        variables["BCRYPT_COST"] = "4"
        variables["ADMIN_PASSWORD"] = nil
        variables.merge(settings) { _, setting in setting }
        return try AppConfiguration(reader: ConfigReader(environment: variables))
    }
}
