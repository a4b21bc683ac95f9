import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Bad input to `POST /api/users/me/tokens` and `DELETE /api/users/me/tokens/:id`: each mistake
/// a JSON 400 whose reason names what to fix, never a 500, and nothing stored.
final class PersonalAccessTokenInputTests: XCTestCase {
    /// Raw bodies, each with the text its reason must hold.
    static let refusedBodies: [(body: String, reason: String)] = [
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":0}"#, "'expiresIn'"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":-60}"#, "'expiresIn'"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":31536001}"#, "'expiresIn'"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":"3600"}"#, "expiresIn"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":1.5}"#, "JSON"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":1e40}"#, "JSON"),
        (#"{"name":"ci","scopes":["acronyms:write"]}"#, "expiresIn"),
        (#"{"name":"ci","scopes":["acronyms:write"],"expiresIn":null}"#, "expiresIn"),
        (#"{"name":"ci","scopes":["nonsense"],"expiresIn":60}"#, "unknown scope 'nonsense'"),
        (#"{"name":"ci","scopes":["account"],"expiresIn":60}"#, "may not hold 'account'"),
        (#"{"name":"ci","scopes":["acronyms:write","clients:write"],"expiresIn":60}"#, "may not hold 'clients:write'"),
        (#"{"name":"ci","scopes":"acronyms:write","expiresIn":60}"#, "scopes"),
        (#"{"name":"ci","scopes":[7],"expiresIn":60}"#, "scopes"),
        (#"{"name":"ci","expiresIn":60}"#, "scopes"),
        (#"{"name":"","scopes":[],"expiresIn":60}"#, "'name' must not be empty"),
        (#"{"name":"   ","scopes":[],"expiresIn":60}"#, "'name' must not be empty"),
        (#"{"name":"ci\u0000x","scopes":[],"expiresIn":60}"#, "NUL"),
        (#"{"name":"ci\u0007","scopes":[],"expiresIn":60}"#, "'name' must not contain control"),
        (#"{"name":"ci\u202Eyikes","scopes":[],"expiresIn":60}"#, "'name' must not contain control or invisible"),
        (#"{"name":"ci\u200Bx","scopes":[],"expiresIn":60}"#, "'name' must not contain control or invisible"),
        (#"{"name":7,"scopes":[],"expiresIn":60}"#, "name"),
        (#"{"scopes":[],"expiresIn":60}"#, "name"),
        (#"["name"]"#, "Dictionary"),
        (#"not json"#, "JSON"),
    ]

    func testEveryMistakeIsAJSON400NamingItAndNothingIsStored() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            for (body, reason) in Self.refusedBodies {
                let response = try await app.client.send(
                    .post, "/api/users/me/tokens", headers: ["Content-Type": "application/json"], body: Array(body.utf8),
                    auth: .bearer(login.value))
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
                let answer = try response.decode(ErrorAnswer.self)
                XCTAssertTrue(answer.error)
                XCTAssertTrue(answer.reason.contains(reason), "\(body): the reason '\(answer.reason)' does not say \(reason)")
            }
            let stored = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat'")
            XCTAssertEqual(stored, 0)
        }
    }

    func testNameBoundsAndScopesNotHeldByTheLogin() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username, scope: "acronyms:write account")
            let longest = String(repeating: "n", count: 100)
            let kept = try await app.client.pat(longest, bearer: login.value)
            XCTAssertEqual(kept.name, longest)
            let tooLong = try await app.client.createPAT(longest + "n", bearer: login.value)
            XCTAssertEqual(tooLong.status.code, 400)
            XCTAssertEqual(try tooLong.decode(ErrorAnswer.self).reason, "'name' must be at most 100 characters (400 bytes).")
            // 100 characters of many bytes each: the byte bound holds too.
            let heavy = String(repeating: "e\u{301}\u{302}\u{303}\u{304}", count: 100)
            let refusedHeavy = try await app.client.createPAT(heavy, bearer: login.value)
            XCTAssertEqual(refusedHeavy.status.code, 400, refusedHeavy.bodyString)

            let notHeld = try await app.client.createPAT(scopes: ["acronyms:write", "users:write"], bearer: login.value)
            XCTAssertEqual(notHeld.status.code, 400)
            XCTAssertEqual(
                try notHeld.decode(ErrorAnswer.self).reason,
                "'scopes': this login does not hold 'users:write', so a token it makes may not either.")
            let tooMany = try await app.client.createPAT(scopes: Array(repeating: "acronyms:write", count: 17), bearer: login.value)
            XCTAssertEqual(tooMany.status.code, 400, tooMany.bodyString)
            let duplicated = try await app.client.pat(scopes: ["acronyms:write", "acronyms:write"], bearer: login.value)
            XCTAssertEqual(duplicated.scopes, ["acronyms:write"])
            let none = try await app.client.pat(scopes: [], bearer: login.value)
            XCTAssertEqual(none.scopes, [])
            let me = try await app.client.meStatus(none.token)
            XCTAssertEqual(me, 200, "a token without scopes still says whose it is")
        }
    }

    func testARevocationOfNoIDIsA400AndALoginWithoutTheAccountScopeIs403() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            for id in ["not-a-uuid", "%00", String(repeating: "f", count: 300)] {
                let response = try await app.client.send(.delete, "/api/users/me/tokens/\(id)", auth: .bearer(login.value))
                XCTAssertEqual(response.status.code, 400, "\(id): \(response.bodyString)")
                XCTAssertNoThrow(try response.decode(ErrorAnswer.self), response.bodyString)
            }
            let narrow = try await app.client.session(user.username, scope: "acronyms:write")
            let refused = try await app.client.createPAT(bearer: narrow.value)
            assertInsufficientScope(refused, needed: "account", "a login without account")
            let anonymous = try await app.client.send(.get, "/api/users/me/tokens")
            XCTAssertEqual(anonymous.status.code, 401)
        }
    }
}
