import AppTesting
import Foundation
import Glibc
import Postgres
import WebTesting
import XCTest
@testable import App

/// `til-server` as an operator meets it, run as a real process: the help, how it refuses a bad
/// configuration, `routes` without a database, and `migrate`'s confirmation.
final class ServerCommandTests: XCTestCase {
    private let path = ["PATH": "/usr/bin:/bin"]

    func testHelpListsEveryEnvironmentVariable() async throws {
        for arguments in [["--help"], ["serve", "--help"]] {
            let help = try await TILServerRun.run(arguments, environment: path)
            XCTAssertEqual(help.status, 0, help.stderr)
            for variable in EnvironmentVariable.allCases {
                XCTAssertTrue(help.stdout.contains("  \(variable.name)"), "\(arguments) lacks \(variable.name)")
            }
            XCTAssertTrue(help.stdout.contains("DATABASE_URL: a URL like postgres://"), help.stdout)
        }
    }

    func testABadValueRefusesToStartWithOneLineNamingIt() async throws {
        let cases: [([String: String], [String], String)] = [
            (["ENVIRONMENT": "testing", "PORT": "80x"], ["serve"], "til-server: PORT must be a port number from 0 (any free one) to 65535, not '80x'."),
            (["ENVIRONMENT": "testing", "DATABASE_PORT": "abc"], ["users", "list"], "til-server: DATABASE_PORT must be a port number"),
            (["ENVIRONMENT": "testing", "BCRYPT_COST": "abc"], ["migrate"], "til-server: BCRYPT_COST must be a whole number from 4 to 31"),
            (["ENVIRONMENT": "production"], ["serve"], "til-server: ADMIN_PASSWORD must be set in production"),
            (["ENVIRONMENT": "producton"], ["routes"], "til-server: ENVIRONMENT must be one of development, testing, production"),
            ([:], ["serve", "--env", "dev"], "til-server: --env (ENVIRONMENT) must be one of development, testing, production"),
        ]
        for (variables, arguments, expected) in cases {
            let run = try await TILServerRun.run(arguments, environment: path.merging(variables) { $1 })
            run.assertFailure(78, mentioning: [expected])
            XCTAssertEqual(run.stdout, "")
        }
    }

    func testWithoutDatabaseURLTheConnectionErrorSaysSoAndPointsToMakeDb() async throws {
        let run = try await TILServerRun.run(["users", "list"], environment: path.merging(["ENVIRONMENT": "testing"]) { $1 })
        if run.status == 0 { throw XCTSkip("a PostgreSQL with a til database answers on 127.0.0.1:5432") }
        run.assertFailure(78, mentioning: ["127.0.0.1:5432/til", "DATABASE_URL is unset", "`make db`"])
    }

    func testAnUnreachableDatabaseIsNamedWithoutItsPassword() async throws {
        let environment = ["ENVIRONMENT": "testing", "DATABASE_URL": "postgres://til:hunter2@127.0.0.1:1/til"]
        let run = try await TILServerRun.run(["migrate", "--yes"], environment: path.merging(environment) { $1 })
        run.assertFailure(69, mentioning: ["127.0.0.1:1/til as til"])
        XCTAssertFalse(run.stderr.contains("hunter2"))
    }

    /// Production, no `ADMIN_PASSWORD`, and a "database" that is only a listening socket: the
    /// table prints and nothing ever connected to it.
    func testRoutesNeedNeitherAdminPasswordNorADatabase() async throws {
        let listener = try Listener()
        defer { close(listener.fd) }
        let environment = ["ENVIRONMENT": "production", "DATABASE_URL": "postgres://til@127.0.0.1:\(listener.port)/til"]
        let run = try await TILServerRun.run(["routes"], environment: path.merging(environment) { $1 })
        XCTAssertEqual(run.status, 0, run.stderr)
        for route in ["GET     /health", "POST    /api/users/login", "GET     /api/acronyms/:acronymID"] {
            XCTAssertTrue(run.stdout.contains(route), "\(route) missing from:\n\(run.stdout)")
        }
        XCTAssertFalse(run.stdout.contains("/metrics"), "production serves no /metrics on the API's port:\n\(run.stdout)")
        XCTAssertFalse(listener.wasConnected, "routes connected to the database")
    }

    /// The database and every pending migration are named before the question; with no
    /// terminal the answer is a refusal that changes nothing, and `--yes` applies them.
    func testMigrateNamesTheDatabaseAndPendingMigrationsAndNeedsATerminalOrYes() async throws {
        let environment = try TILServerRun.testEnvironment()
        let url = try XCTUnwrap(environment["DATABASE_URL"])
        try await withTestApp { app in
            try await app.withEveryMigrationReverted { migrator, all in
                let refused = try await TILServerRun.run(["migrate"], environment: environment)
                refused.assertFailure(64, mentioning: ["stdin is not a terminal", "til-server migrate --yes"])
                XCTAssertTrue(refused.stdout.hasPrefix("Database: \(app.til.configuration.database.endpointDescription)\n"), refused.stdout)
                XCTAssertTrue(refused.stdout.contains("Pending migrations:\n" + all.map { "  \($0)\n" }.joined()), refused.stdout)
                XCTAssertFalse(refused.stdout.contains(url) || refused.stdout.contains("til:til"), "the password is shown")
                let pendingAfterRefusal = try await migrator.pendingMigrations()
                XCTAssertEqual(pendingAfterRefusal, all, "a refusal applied something")

                let applied = try await TILServerRun.run(["migrate", "--yes"], environment: environment)
                XCTAssertEqual(applied.status, 0, applied.stderr)
                XCTAssertTrue(applied.stdout.hasSuffix(all.map { "applied \($0)\n" }.joined()), applied.stdout)
                let nothing = try await TILServerRun.run(["migrate"], environment: environment)
                XCTAssertEqual(nothing.status, 0, nothing.stderr)
                XCTAssertTrue(nothing.stdout.hasSuffix("Nothing to do.\n"), nothing.stdout)

                let revert = try await TILServerRun.run(["migrate", "--revert"], environment: environment)
                revert.assertFailure(64, mentioning: ["til-server migrate --revert --yes"])
                XCTAssertTrue(revert.stdout.contains("  \(all.last ?? "")\n  \(all.dropLast().last ?? "")\n"), revert.stdout)
                let pendingAfterRevertRefusal = try await migrator.pendingMigrations()
                XCTAssertEqual(pendingAfterRevertRefusal, [])
            }
        }
    }

    /// A listening TCP socket on a free loopback port that tells whether anyone connected.
    private struct Listener {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard fd >= 0, bound else { throw ServerProcessError.noPort }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// True when a connection waits to be accepted (the socket never accepts by itself).
        var wasConnected: Bool {
            let client = accept(fd, nil, nil)
            if client >= 0 { close(client) }
            return client >= 0
        }
    }
}
