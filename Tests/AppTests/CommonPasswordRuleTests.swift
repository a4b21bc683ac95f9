import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The common-password rule (issue 21, ASVS 6.2.4) wherever a password is set: user creation,
/// a password change, the operator's `users set-password`, and `ADMIN_PASSWORD`. On unless
/// `COMMON_PASSWORD_CHECK=off`; the built-in admin password is the one exception.
///
/// Two requests racing do not apply here: the rule reads the submitted password and a list
/// fixed at build time, no secret or counter that two requests could share. A second process
/// differs only by its configuration (the `users set-password` child below).
final class CommonPasswordRuleTests: XCTestCase {
    struct NewUser: Encodable {
        var name = "Common"
        var username: String
        var password: String
    }
    struct Change: Encodable {
        var currentPassword = "password"
        var newPassword: String
    }

    /// A common password in lower case, in upper case, full-width, and with a capital and a
    /// full-width digit: all one password to an attacker's list.
    let spellings = ["iloveyou", "PASSWORD", "ｐａｓｓｗｏｒｄ", "Ｔｒｕｓｔｎｏ１", "Superman"]

    func testCreatingAUserWithACommonPasswordIs400SayingWhyAndCreatesNoUser() async throws {
        try await withTestApp { app in
            let admin = try await app.client.session("admin")
            for (index, password) in spellings.enumerated() {
                let response = try await app.client.send(
                    .post, "/api/users", json: NewUser(username: "common\(index)", password: password), auth: .bearer(admin.value))
                XCTAssertEqual(response.status.code, 400, "\(password): \(response.bodyString)")
                XCTAssertEqual(
                    try response.decode(ErrorAnswer.self).reason,
                    "'password' is one of the 30,000 most common passwords, the first ones an attacker tries: choose another.")
            }
            let created = try await app.number("SELECT count(*) AS n FROM users WHERE username LIKE 'common%'")
            XCTAssertEqual(created, 0)
            let uncommon = try await app.client.send(
                .post, "/api/users", json: NewUser(username: "uncommon", password: "s3cret-pass"), auth: .bearer(admin.value))
            XCTAssertEqual(uncommon.status.code, 200, uncommon.bodyString)
            let login = try await app.client.login("uncommon", "s3cret-pass")
            XCTAssertEqual(login.status.code, 200)
        }
    }

    /// Refused before the current password is checked: no failure counted, no session ended,
    /// the old password still works.
    func testChangingToACommonPasswordIs400AndChangesNothing() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let caller = try await app.client.session(user.username)
            let other = try await app.client.session(user.username)
            for newPassword in spellings {
                for currentPassword in ["password", "wrong-password"] {
                    let response = try await app.client.send(
                        .put, "/api/users/me/password", json: Change(currentPassword: currentPassword, newPassword: newPassword),
                        auth: .bearer(caller.value))
                    XCTAssertEqual(response.status.code, 400, "\(newPassword): \(response.bodyString)")
                    XCTAssertEqual(
                        try response.decode(ErrorAnswer.self).reason,
                        "'newPassword' is one of the 30,000 most common passwords, the first ones an attacker tries: choose another.")
                }
            }
            let failures = try await app.number("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(failures, 0, "a refused change counted a failure")
            let stillIn = try await app.client.send(.get, "/api/users/me", auth: .bearer(other.value))
            XCTAssertEqual(stillIn.status.code, 200, "a refused change ended another session")
            let old = try await app.client.login(user.username, "password")
            XCTAssertEqual(old.status.code, 200, "the password changed")
        }
    }

    func testUsersSetPasswordRefusesACommonPasswordInProcessAndFromTheCommand() async throws {
        try await withCommandTestApp { app, environment, user in
            do {
                try await app.til.administration.setPassword("Ｐａｓｓｗｏｒｄ１", of: user.username)
                XCTFail("a common password was set")
            } catch let failure as UserAdministration.Failure {
                XCTAssertEqual(
                    failure.description,
                    "'new password' is one of the 30,000 most common passwords, the first ones an attacker tries: choose another.")
            }
            let run = try await TILServerRun.run(
                ["users", "set-password", user.username, "--password-stdin"], environment: environment, input: "qwertyuiop\n")
            run.assertFailure(1, mentioning: ["'new password' is one of the 30,000 most common passwords"])
            let old = try await app.client.login(user.username, "password")
            XCTAssertEqual(old.status.code, 200, "a refused command changed the password")

            // A second process configured otherwise: its own rules, not this one's.
            var off = environment
            off["COMMON_PASSWORD_CHECK"] = "off"
            let allowed = try await TILServerRun.run(
                ["users", "set-password", user.username, "--password-stdin"], environment: off, input: "qwertyuiop\n")
            XCTAssertEqual(allowed.status, 0, allowed.stderr)
            let new = try await app.client.login(user.username, "qwertyuiop")
            XCTAssertEqual(new.status.code, 200)
        }
    }

    /// `COMMON_PASSWORD_CHECK=off`: the book's passwords, as before the rule.
    func testWithTheCheckOffTheBooksPasswordsAreAccepted() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let admin = try await app.client.session("admin")
            let created = try await app.client.send(
                .post, "/api/users", json: NewUser(username: "book", password: "password"), auth: .bearer(admin.value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let book = try await app.client.session("book")
            let changed = try await app.client.send(
                .put, "/api/users/me/password", json: Change(newPassword: "password1"), auth: .bearer(book.value))
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            try await app.til.administration.setPassword("iloveyou", of: "book")
            let set = try await app.client.login("book", "iloveyou")
            XCTAssertEqual(set.status.code, 200)
            // The length rule still holds.
            let short = try await app.client.send(
                .post, "/api/users", json: NewUser(username: "short", password: "pass"), auth: .bearer(admin.value))
            XCTAssertEqual(short.status.code, 400, short.bodyString)
        }
    }

    /// On in every environment unless turned off; `ADMIN_PASSWORD` follows the rule, except
    /// the built-in password where that is allowed at all (never in production).
    func testTheCheckIsOnEverywhereAndAdminPasswordFollowsItButForTheBuiltInOne() throws {
        let base = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til", "SECRET_KEY": ServerProcess.testingSecretKey]
        func load(_ variables: [String: String]) throws -> AppConfiguration {
            try AppConfiguration(reader: ConfigReader(environment: base.merging(variables) { $1 }))
        }
        for environment in ["development", "testing", "production"] {
            let configuration = try load(["ENVIRONMENT": environment, "ADMIN_PASSWORD": "correct horse"])
            XCTAssertTrue(configuration.passwordRules.refusesCommonPasswords, environment)
            XCTAssertThrowsError(try load(["ENVIRONMENT": environment, "ADMIN_PASSWORD": "ＩＬＯＶＥＹＯＵ"]), environment) { error in
                XCTAssertEqual(
                    "\(error)",
                    "'ADMIN_PASSWORD' is one of the 30,000 most common passwords, the first ones an attacker tries: choose another."
                        + " (COMMON_PASSWORD_CHECK=off allows it.)")
            }
            let off = try load(["ENVIRONMENT": environment, "ADMIN_PASSWORD": "iloveyou", "COMMON_PASSWORD_CHECK": "off"])
            XCTAssertFalse(off.passwordRules.refusesCommonPasswords)
            XCTAssertEqual(off.adminPassword, "iloveyou")
        }
        for environment in ["development", "testing"] {
            XCTAssertEqual(try load(["ENVIRONMENT": environment]).adminPassword, "password", "the built-in one, unset")
            XCTAssertEqual(try load(["ENVIRONMENT": environment, "ADMIN_PASSWORD": "password"]).adminPassword, "password", "set")
        }
        XCTAssertThrowsError(try load(["ENVIRONMENT": "production", "ADMIN_PASSWORD": "password"])) { error in
            XCTAssertEqual("\(error)", "ADMIN_PASSWORD must not be the built-in 'password' in production.")
        }
    }
}
