import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The administrator role and `clients:write` (issue 18): only an administrator gets the scope,
/// only when asking for it by name; anyone else asking gets 400 `invalid_scope`.
final class AdminRoleTests: XCTestCase {
    func testOnlyAnAdministratorGetsClientsWriteAndOnlyWhenAskingForIt() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "timc", on: app)
            let refused = try await app.client.login("timc", scope: "clients:write")
            XCTAssertEqual(refused.status.code, 400, refused.bodyString)
            XCTAssertTrue(refused.bodyString.contains("invalid_scope"), refused.bodyString)
            XCTAssertTrue(refused.bodyString.contains("administrators only"), refused.bodyString)
            let alongside = try await app.client.login("timc", scope: "account clients:write")
            XCTAssertEqual(alongside.status.code, 400, "not dropped silently: \(alongside.bodyString)")

            let everything = try await app.client.session("timc")
            XCTAssertEqual(everything.scopes, ["acronyms:write", "categories:write", "users:write", "account"])
            let adminDefault = try await app.client.session("admin")
            XCTAssertFalse(adminDefault.scopes.contains("clients:write"), "asked for by name only")
            let admin = try await app.client.session("admin", scope: "clients:write account")
            XCTAssertEqual(admin.scopes, ["account", "clients:write"])
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(admin.value))
            XCTAssertEqual(me.status.code, 200)
        }
    }

    /// Look-alike spellings are other, unknown scopes: refused before any password is checked.
    func testLookAlikeSpellingsOfClientsWriteAreUnknownScopes() async throws {
        try await withTestApp { app in
            for spelling in ["clients:wrіte", "CLIENTS:WRITE", "clients：write", "clients:write\u{200B}"] {
                let path = "/api/users/login?scope=" + (spelling.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let response = try await app.client.send(.post, path, auth: .basic("admin", "password"))
                XCTAssertEqual(response.status.code, 400, spelling)
                XCTAssertTrue(response.bodyString.contains("unknown scope"), "\(spelling): \(response.bodyString)")
            }
        }
    }

    func testTheOperatorGrantsAndRevokesTheRoleAndRevokingEndsTheSessionsHoldingTheScope() async throws {
        try await withCommandTestApp { app, environment, user in
            let granted = try await TILServerRun.run(["users", "admin", "timc", "--grant"], environment: environment)
            XCTAssertEqual(granted.status, 0, granted.stderr)
            XCTAssertEqual(granted.stdout, "timc is an administrator.\n")
            XCTAssertTrue(granted.stderr.contains("audit admin.granted"), granted.stderr)
            let powerful = try await app.client.session("timc", scope: "clients:write")
            let ordinary = try await app.client.session("timc", scope: "account")

            let revoked = try await TILServerRun.run(["users", "admin", "timc", "--revoke"], environment: environment)
            XCTAssertEqual(revoked.status, 0, revoked.stderr)
            XCTAssertEqual(revoked.stdout, "timc is no longer an administrator; 1 session ended.\n")
            XCTAssertTrue(revoked.stderr.contains(#"user-id=""# + user.id.uuidString + #"""#), revoked.stderr)
            let (powerfulStatus, ordinaryStatus) = (try await app.client.meStatus(powerful.value), try await app.client.meStatus(ordinary.value))
            XCTAssertEqual(powerfulStatus, 401, "the clients:write session ended")
            XCTAssertEqual(ordinaryStatus, 200, "the others live on")
            let again = try await app.client.login("timc", scope: "clients:write")
            XCTAssertEqual(again.status.code, 400)
        }
    }

    /// A login that checked the role just before `users admin --revoke` committed leaves a
    /// `clients:write` session the revocation did not see. The role is checked again where the
    /// scope is used, in the registration's own statement: such a token registers nothing.
    func testAClientsWriteTokenOutlivingTheRoleRegistersNothing() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "timc", on: app)
            try await app.til.db.execute("UPDATE users SET is_admin = true WHERE id = \(user.id)")
            let token = try await app.client.session("timc", scope: "clients:write").value
            // The revocation's flag lands after the session: what the race leaves behind.
            try await app.til.db.execute("UPDATE users SET is_admin = false WHERE id = \(user.id)")
            let metadata: [String: [String]] = ["redirect_uris": ["https://app.example/cb"]]
            let refused = try await app.client.send(.post, "/oauth/register", json: metadata, auth: .bearer(token))
            XCTAssertEqual(refused.status.code, 403, refused.bodyString)
            XCTAssertTrue(refused.headers["WWW-Authenticate"]?.contains("insufficient_scope") ?? false)
            let stored = try await app.number("SELECT count(*) AS n FROM oauth_clients WHERE id <> 'til-cli'")
            XCTAssertEqual(stored, 0, "nothing stored")
        }
    }

    func testTheCommandNeedsExactlyOneFlagAndAnExistingUser() async throws {
        let environment = try TILServerRun.testEnvironment()
        let neither = try await TILServerRun.run(["users", "admin", "timc"], environment: environment)
        neither.assertFailure(64, mentioning: ["Give exactly one of --grant or --revoke."])
        let both = try await TILServerRun.run(["users", "admin", "timc", "--grant", "--revoke"], environment: environment)
        both.assertFailure(64, mentioning: ["Give exactly one of --grant or --revoke."])
        let unknown = try await TILServerRun.run(["users", "admin", "nobody-\(UUID())", "--grant"], environment: environment)
        unknown.assertFailure(1, mentioning: ["no user named 'nobody-"])
    }
}
