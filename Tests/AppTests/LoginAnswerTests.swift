import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// The login answer, bearer challenges and token expiry, as a client sees them.
final class LoginAnswerTests: XCTestCase {
    func testLoginAnswerHasTheContractShape() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "600", "REFRESH_TOKEN_TTL": "7200"]) { app in
            let user = try await User.create(on: app)
            let before = Date()
            let response = try await app.client.login(user.username)
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            XCTAssertEqual(response.headers["Pragma"], "no-cache")
            let answer = try response.decode(LoginAnswer.self)
            XCTAssertEqual(answer.user.id, user.id)
            XCTAssertEqual(answer.value.count, 43)
            XCTAssertEqual(answer.refreshToken.count, 43)
            XCTAssertNotEqual(answer.value, answer.refreshToken)
            let base64URL = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            XCTAssertTrue(answer.value.unicodeScalars.allSatisfy(base64URL.contains), answer.value)
            XCTAssertTrue(answer.refreshToken.unicodeScalars.allSatisfy(base64URL.contains), answer.refreshToken)
            XCTAssertEqual(Set(answer.scopes), allScopes)
            XCTAssertEqual(answer.scopes.count, 4)
            XCTAssertEqual(answer.tokenType, "Bearer")
            XCTAssertTrue(answer.expiresAt.hasSuffix("Z"), answer.expiresAt)
            XCTAssertEqual(try contractDate(answer.expiresAt).timeIntervalSince(before), 600, accuracy: 3)
            XCTAssertEqual(try contractDate(answer.refreshExpiresAt).timeIntervalSince(before), 7200, accuracy: 3)
        }
    }

    func testDefaultLifetimesAreAnHourAndThirtyDays() async throws {
        try await withTestApp { app in
            let before = Date()
            let answer = try await app.client.session("admin")
            XCTAssertEqual(try contractDate(answer.expiresAt).timeIntervalSince(before), 3600, accuracy: 3)
            XCTAssertEqual(try contractDate(answer.refreshExpiresAt).timeIntervalSince(before), 2_592_000, accuracy: 3)
        }
    }

    func testLoginIdIsTheSessionIdListed() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let answer = try await app.client.session(user.username)
            let response = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(answer.value))
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            let sessions = try response.decode([SessionEntry].self)
            XCTAssertEqual(sessions.map(\.id), [answer.id])
            XCTAssertEqual(sessions.first?.current, true)
        }
    }

    func testEveryLoginStartsItsOwnSession() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let first = try await app.client.session(user.username)
            let second = try await app.client.session(user.username)
            XCTAssertNotEqual(first.id, second.id)
            XCTAssertNotEqual(first.value, second.value)
            XCTAssertNotEqual(first.refreshToken, second.refreshToken)
        }
    }

    func testAccessTokenPastItsTTLIsInvalidToken() async throws {
        try await withTestApp(settings: ["TOKEN_TTL": "1"]) { app in
            let user = try await User.create(on: app)
            let issued = Date()
            let answer = try await app.client.session(user.username)
            let fresh = try await app.client.meStatus(answer.value)
            XCTAssertEqual(fresh, 200)
            try await waitPastExpiry(of: answer.expiresAt, issued: issued, ttl: 1)
            let expired = try await app.client.send(.get, "/api/users/me", auth: .bearer(answer.value))
            assertInvalidToken(expired, "expired access token")
        }
    }

    func testNoTokenIsAPlainBearerChallenge() async throws {
        try await withTestApp { app in
            let guarded: [(HTTPMethod, String)] = [(.get, "/api/users/me"), (.post, "/api/categories"), (.post, "/api/users/logout")]
            for (method, path) in guarded {
                let response = try await app.client.send(method, path)
                XCTAssertEqual(response.status.code, 401, "\(method) \(path)")
                XCTAssertEqual(response.headers["WWW-Authenticate"], plainBearerChallenge, "\(method) \(path)")
            }
            let basic = try await app.client.send(.get, "/api/users/me", auth: .basic("admin", "password"))
            XCTAssertEqual(basic.status.code, 401)
            XCTAssertEqual(basic.headers["WWW-Authenticate"], plainBearerChallenge)
        }
    }

    func testUnknownTokenIsInvalidToken() async throws {
        try await withTestApp { app in
            let unknown = String(repeating: "A", count: 43)
            let response = try await app.client.send(.get, "/api/users/me", auth: .bearer(unknown))
            assertInvalidToken(response, "unknown token")
            XCTAssertNoThrow(try response.decode(ErrorAnswer.self), response.bodyString)
        }
    }

    func testSeveralAuthorizationHeadersAre400() async throws {
        try await withTestApp { app in
            let answer = try await app.client.session("admin")
            let headers = HTTPHeaders([("Authorization", "Bearer \(answer.value)"), ("Authorization", "Bearer \(answer.value)")])
            let response = try await app.client.send(.get, "/api/users/me", headers: headers)
            XCTAssertEqual(response.status.code, 400, response.bodyString)
        }
    }

    func testPasswordsAndHashesAreNeverReturned() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.login(user.username)
            XCTAssertEqual(login.status.code, 200)
            let answer = try login.decode(LoginAnswer.self)
            let refreshed = try await app.client.refresh(answer.refreshToken)
            XCTAssertEqual(refreshed.status.code, 200)
            let pair = try refreshed.decode(LoginAnswer.self)
            let bodies: [(String, TestResponse)] = [
                ("login", login),
                ("refresh", refreshed),
                ("users", try await app.client.send(.get, "/api/users")),
                ("user", try await app.client.send(.get, "/api/users/\(user.id)")),
                ("me", try await app.client.send(.get, "/api/users/me", auth: .bearer(pair.value))),
                ("sessions", try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(pair.value))),
            ]
            for (name, response) in bodies {
                XCTAssertEqual(response.status.code, 200, "\(name): \(response.bodyString)")
                XCTAssertFalse(response.bodyString.lowercased().contains("\"password"), "\(name): \(response.bodyString)")
                XCTAssertFalse(response.bodyString.contains("$2b$"), "\(name): \(response.bodyString)")
                XCTAssertFalse(response.bodyString.contains("$2y$"), "\(name): \(response.bodyString)")
            }
            let me = try bodies[4].1.decode(PublicUser.self)
            XCTAssertEqual(me, PublicUser(id: user.id, name: user.name, username: user.username))
        }
    }
}

/// Waits until a token issued at `issued` with `ttl` seconds, and stated to expire at
/// `expiresAt`, is past both (plus a margin); never more than `ttl + 2` seconds.
func waitPastExpiry(of expiresAt: String, issued: Date, ttl: Double) async throws {
    let stated = try contractDate(expiresAt)
    let deadline = max(stated, issued.addingTimeInterval(ttl)).addingTimeInterval(0.4)
    let wait = min(deadline.timeIntervalSinceNow, ttl + 2)
    if wait > 0 { try await pause(wait) }
}
