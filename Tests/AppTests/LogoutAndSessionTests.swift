import App
import AppTesting
import Crypt
import Foundation
import Web
import WebTesting
import XCTest

/// Logout, logout-all, `/api/users/me` and the list of one's own sessions.
final class LogoutAndSessionTests: XCTestCase {
    func testLogoutEndsOnlyTheCallersSession() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let ending = try await app.client.session(user.username)
            let staying = try await app.client.session(user.username)
            let logout = try await app.client.send(.post, "/api/users/logout", auth: .bearer(ending.value))
            XCTAssertEqual(logout.status.code, 204, logout.bodyString)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(ending.value)), "logged-out access token")
            let endedRefresh = try await app.client.refreshStatus(ending.refreshToken)
            XCTAssertEqual(endedRefresh, 401, "logged-out refresh token")
            let stayingAccess = try await app.client.meStatus(staying.value)
            XCTAssertEqual(stayingAccess, 200)
            let stayingRefresh = try await app.client.refreshStatus(staying.refreshToken)
            XCTAssertEqual(stayingRefresh, 200)
        }
    }

    func testLogoutAllEndsEverySessionOfTheUserOnly() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            var sessions: [LoginAnswer] = []
            for _ in 0..<3 { sessions.append(try await app.client.session(user.username)) }
            let bystander = try await app.client.session("admin")
            let response = try await app.client.send(.post, "/api/users/logout-all", auth: .bearer(sessions[1].value))
            XCTAssertEqual(response.status.code, 204, response.bodyString)
            for (index, session) in sessions.enumerated() {
                let access = try await app.client.meStatus(session.value)
                XCTAssertEqual(access, 401, "session \(index) access")
                let refresh = try await app.client.refreshStatus(session.refreshToken)
                XCTAssertEqual(refresh, 401, "session \(index) refresh")
            }
            let other = try await app.client.meStatus(bystander.value)
            XCTAssertEqual(other, 200, "another user's session is untouched")
        }
    }

    func testMeIsThePublicUser() async throws {
        try await withTestApp { app in
            let user = try await User.create(name: "Leia", on: app)
            let login = try await app.client.session(user.username, scope: "acronyms:write")
            let response = try await app.client.send(.get, "/api/users/me", auth: .bearer(login.value))
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(try response.decode(PublicUser.self), PublicUser(id: user.id, name: "Leia", username: user.username))
            let keys = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]).keys
            XCTAssertEqual(Set(keys), ["id", "name", "username"])
        }
    }

    func testSessionsListsOwnLiveSessionsOldestFirstWithoutSecrets() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let alpha = try await app.client.session(user.username, headers: ["User-Agent": "Alpha/1.0"])
            let beta = try await app.client.session(user.username, headers: ["User-Agent": "Beta/2.0"])
            let anonymous = try await app.client.session(user.username)
            let ended = try await app.client.session(user.username, headers: ["User-Agent": "Gone/1"])
            _ = try await app.client.send(.post, "/api/users/logout", auth: .bearer(ended.value))
            let someoneElse = try await app.client.session("admin")

            let response = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(beta.value))
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            let sessions = try response.decode([SessionEntry].self)
            XCTAssertEqual(sessions.map(\.id), [alpha.id, beta.id, anonymous.id])
            XCTAssertEqual(sessions.map(\.current), [false, true, false])
            XCTAssertEqual(sessions.map(\.userAgent), ["Alpha/1.0", "Beta/2.0", nil])
            XCTAssertTrue(sessions.allSatisfy { Set($0.scopes) == allScopes })
            for session in sessions {
                XCTAssertNoThrow(try contractDate(session.createdAt))
                XCTAssertNoThrow(try contractDate(session.expiresAt))
                XCTAssertNoThrow(try contractDate(session.refreshExpiresAt))
            }
            let body = response.bodyString
            for login in [alpha, beta, anonymous, ended, someoneElse] {
                for secret in [login.value, login.refreshToken] {
                    XCTAssertFalse(body.contains(secret), "a token in the session list")
                    XCTAssertFalse(body.contains(SHA256.hex(of: secret)), "a token digest in the session list")
                }
            }
            XCTAssertFalse(body.contains(someoneElse.id.uuidString.lowercased()))
            XCTAssertFalse(body.contains(someoneElse.id.uuidString))
        }
    }

    func testDeletingOwnSessionEndsIt() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let caller = try await app.client.session(user.username)
            let target = try await app.client.session(user.username)
            let response = try await app.client.send(.delete, "/api/users/me/sessions/\(target.id)", auth: .bearer(caller.value))
            XCTAssertEqual(response.status.code, 204, response.bodyString)
            let list = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(caller.value))
            XCTAssertEqual(try list.decode([SessionEntry].self).map(\.id), [caller.id])
            let targetAccess = try await app.client.meStatus(target.value)
            XCTAssertEqual(targetAccess, 401)
            let targetRefresh = try await app.client.refreshStatus(target.refreshToken)
            XCTAssertEqual(targetRefresh, 401)
            let callerAccess = try await app.client.meStatus(caller.value)
            XCTAssertEqual(callerAccess, 200)
        }
    }

    func testDeletingTheCurrentSessionEndsTheCaller() async throws {
        try await withTestApp { app in
            let caller = try await app.client.session("admin")
            let response = try await app.client.send(.delete, "/api/users/me/sessions/\(caller.id)", auth: .bearer(caller.value))
            XCTAssertEqual(response.status.code, 204, response.bodyString)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(caller.value)), "ended current session")
        }
    }

    func testDeletingAnotherUsersSessionIs404AndLeavesItAlive() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let caller = try await app.client.session(user.username)
            let victim = try await app.client.session("admin")
            let response = try await app.client.send(.delete, "/api/users/me/sessions/\(victim.id)", auth: .bearer(caller.value))
            XCTAssertEqual(response.status.code, 404, response.bodyString)
            let victimAccess = try await app.client.meStatus(victim.value)
            XCTAssertEqual(victimAccess, 200)
        }
    }

    func testDeletingAnUnknownSessionIs404AndAMalformedIdIs400() async throws {
        try await withTestApp { app in
            let caller = try await app.client.session("admin")
            let unknown = try await app.client.send(.delete, "/api/users/me/sessions/\(UUID())", auth: .bearer(caller.value))
            XCTAssertEqual(unknown.status.code, 404, unknown.bodyString)
            let malformed = try await app.client.send(.delete, "/api/users/me/sessions/not-a-uuid", auth: .bearer(caller.value))
            XCTAssertEqual(malformed.status.code, 400, malformed.bodyString)
            XCTAssertNoThrow(try malformed.decode(ErrorAnswer.self), malformed.bodyString)
        }
    }
}
