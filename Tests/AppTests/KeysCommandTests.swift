import AppTesting
import Foundation
import JOSE
import Postgres
import XCTest
@testable import App

/// `til-server keys rotate|list|prune` as real processes on the test database, and `SECRET_KEY`
/// as the operator meets it: missing, garbage, or not the one that sealed the keys.
final class KeysCommandTests: XCTestCase {
    func testRotateListAndPruneAsTheOperatorRunsThem() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withEmptySigningKeys { app in
            let first = try await TILServerRun.run(["keys", "list"], environment: environment)
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertTrue(first.stdout.hasPrefix("KID"), first.stdout)
            XCTAssertEqual(first.stdout.split(separator: "\n").count, 1, "no key before the first start: \(first.stdout)")

            let rotate = try await TILServerRun.run(["keys", "rotate", "--algorithm", "es256"], environment: environment)
            XCTAssertEqual(rotate.status, 0, rotate.stderr)
            let es256 = try await app.storedKids(.es256)
            XCTAssertEqual(es256.count, 2, "the first key, made before rotating, and the new one")
            let rs256 = try await app.storedKids(.rs256)
            XCTAssertEqual(rs256.count, 1)
            XCTAssertTrue(rotate.stdout.contains("Added ES256 key \(es256[1]): published now, signs from "), rotate.stdout)

            let activated = try await TILServerRun.run(["keys", "rotate", "--activate"], environment: environment)
            XCTAssertEqual(activated.status, 0, activated.stderr)
            XCTAssertEqual(activated.stdout.split(separator: "\n").filter { $0.contains("signs from now on") }.count, 2, activated.stdout)
            let list = try await TILServerRun.run(["keys", "list"], environment: environment)
            let statuses = list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }
            // --activate does not cancel the key still waiting: it signs from its own activation on.
            XCTAssertEqual(statuses.sorted(), ["active", "active", "next", "retired", "retired"], list.stdout)

            let prune = try await TILServerRun.run(["keys", "prune"], environment: environment)
            XCTAssertEqual(prune.status, 0, prune.stderr)
            XCTAssertEqual(prune.stdout, "No key is retired long enough to prune.\n")
            let kept = try await app.storedKids()
            XCTAssertEqual(kept.count, 5)
        }
    }

    func testBadInputIsRefusedWithOneLine() async throws {
        let environment = try TILServerRun.testEnvironment()
        let algorithm = try await TILServerRun.run(["keys", "rotate", "--algorithm", "HS256"], environment: environment)
        algorithm.assertFailure(64, mentioning: ["--algorithm must be RS256, ES256 or all, not 'HS256'"])
        // Another spelling of the same name is not the name: a fullwidth Ｅ, a Cyrillic С.
        for lookalike in ["ＥS256", "RS２５６", "ЕS256"] {
            let refused = try await TILServerRun.run(["keys", "rotate", "--algorithm", lookalike], environment: environment)
            refused.assertFailure(64, mentioning: ["--algorithm must be RS256, ES256 or all"])
        }
        let extra = try await TILServerRun.run(["keys", "prune", "now"], environment: environment)
        XCTAssertEqual(extra.status, 64, extra.stderr)

        let garbage = "not-a-secret-key-at-all"
        let short = try await TILServerRun.run(["keys", "rotate"], environment: environment.merging(["SECRET_KEY": garbage]) { $1 })
        short.assertFailure(78, mentioning: ["SECRET_KEY must be at least 32 random bytes as base64 or hex"])
        XCTAssertFalse(short.stderr.contains(garbage), "a secret's value is never echoed")
        let tooShort = try await TILServerRun.run(
            ["keys", "rotate"], environment: environment.merging(["SECRET_KEY": String(repeating: "ab", count: 31)]) { $1 })
        XCTAssertEqual(tooShort.status, 78, "31 bytes are too few")

        var production = environment
        production["ENVIRONMENT"] = "production"
        production["SECRET_KEY"] = nil
        let missing = try await TILServerRun.run(["keys", "rotate"], environment: production)
        missing.assertFailure(78, mentioning: ["SECRET_KEY must be set in production"])
        let serve = try await TILServerRun.run(
            ["serve", "--port", "0"], environment: production.merging(["ADMIN_PASSWORD": "an-admin-password"]) { $1 })
        serve.assertFailure(78, mentioning: ["SECRET_KEY must be set in production"])
    }

    func testAWrongSecretKeyStopsServeAndRotateWithAClearLine() async throws {
        let wrong = try TILServerRun.testEnvironment(["SECRET_KEY": String(repeating: "cd", count: 32)])
        try await withTestApp { app in
            let kids = try await app.til.signingKeys.publishedKeys().keys.compactMap(\.kid)
            let serve = try await TILServerRun.run(["serve", "--port", "0", "--no-auto-migrate"], environment: wrong)
            serve.assertFailure(78, mentioning: ["does not open with this SECRET_KEY", "set the SECRET_KEY it was sealed with"])
            let rotate = try await TILServerRun.run(["keys", "rotate"], environment: wrong)
            rotate.assertFailure(78, mentioning: ["does not open with this SECRET_KEY"])
            let stored = try await app.storedKids()
            XCTAssertEqual(stored.sorted(), kids.sorted(), "nothing sealed with the wrong key was added")
        }
    }
}
