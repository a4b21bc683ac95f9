import Foundation
import XCTest

/// Issue 17 (low): "Production accepts the built-in admin password `password` on loopback."
/// `til-server serve` in production refuses it wherever it binds, loopback included (where a
/// same-host reverse proxy connects): set in `ADMIN_PASSWORD` it stops the start here, before
/// the database is touched; still stored in the database, `UsersCommandTests
/// .testProductionRefusesTheBuiltInAdminPasswordUntilTheOperatorChangesIt` shows the refusal
/// on 127.0.0.1.
final class BuiltInAdminPasswordTests: XCTestCase {
    func testProductionRefusesTheBuiltInAdminPasswordOnLoopbackToo() async throws {
        let environment = try TILServerRun.testEnvironment(["ENVIRONMENT": "production", "ADMIN_PASSWORD": "password"])
        for host in ["127.0.0.1", "::1", "localhost", "0.0.0.0"] {
            let run = try await TILServerRun.run(["serve", "--hostname", host, "--port", "0"], environment: environment)
            run.assertFailure(78, mentioning: ["ADMIN_PASSWORD must not be the built-in 'password' in production."])
        }
    }
}
