import Foundation
import Web

extension AppConfiguration {
    /// The configuration every test suite runs the app with: the process environment (the
    /// Makefile's `DATABASE_URL`) in testing, bcrypt at cost 4, the built-in admin password,
    /// then `settings` on top (`["TOKEN_TTL": "1"]`); messages written to `testMailDirectory`
    /// unless `settings` name an `SMTP_URL`. Nil without `DATABASE_URL`, so that a
    /// suite can skip instead of failing when run outside `make test`.
    /// Where tests' messages go without `SMTP_URL`: a directory of this test process's own.
    package static let testMailDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("til-test-mail-\(ProcessInfo.processInfo.processIdentifier)").path

    package static func forTests(settings: [String: String] = [:]) throws -> AppConfiguration? {
        var variables = ProcessInfo.processInfo.environment
        guard variables["DATABASE_URL"] != nil else { return nil }
        variables["ENVIRONMENT"] = "testing"
        variables["BCRYPT_COST"] = "4"
        variables["ADMIN_PASSWORD"] = nil
        variables.merge(settings) { _, setting in setting }
        var configuration = try AppConfiguration(reader: ConfigReader(environment: variables))
        if case .files = configuration.mail.delivery {  // never the repository's .mail/
            configuration.mail.delivery = .files(directory: testMailDirectory)
        }
        return configuration
    }
}
