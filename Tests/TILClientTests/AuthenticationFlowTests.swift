import Foundation
import TILClient
import XCTest

/// Login, bearer tokens, refresh and revocation as TILClient handles them, against a live server.
final class AuthenticationFlowTests: XCTestCase {
    func testLoginThenEveryCallCarriesTheBearerToken() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let log = RequestLog()
            let til = server.client { $0.steps = [log] }
            let token = try await til.login(username: user.username, password: password)
            XCTAssertEqual(Set(token.scopes), Set(Scope.known))

            let me = try await til.me()
            XCTAssertEqual(me, user.asPublic)
            let acronym = try await til.acronyms.create(short: "OMG", long: "Oh My God")
            let category = try await til.categories.create(name: "Teen-\(UUID().uuidString.prefix(6))")
            try await til.acronyms.link(acronym.id, to: category.id)
            let linked = try await til.acronyms.categories(of: acronym.id).collect()
            XCTAssertEqual(linked, [category])
            _ = try await til.acronyms.update(acronym.id, short: "OMG", long: "Oh My Gosh")
            try await til.acronyms.unlink(acronym.id, from: category.id)
            let current = try await til.account.sessions().filter(\.current).map(\.id)
            XCTAssertEqual(current, [token.id])
            try await til.acronyms.delete(acronym.id)

            let entries = await log.entries
            XCTAssertEqual(entries.first?.authorization?.hasPrefix("Basic "), true, "login sends Basic")
            let bearerCalls = entries.dropFirst().filter { $0.method != "GET" || $0.path.hasPrefix("/api/users/me") }
            XCTAssertEqual(bearerCalls.count, 8)
            for entry in bearerCalls {
                XCTAssertEqual(entry.authorization, "Bearer \(token.value)", "\(entry.method) \(entry.path)")
            }
            XCTAssertNil(entries.first { $0.path == "/api/acronyms/\(acronym.id.uuidString)/categories" }?.authorization,
                         "public reads go without a token")
        }
    }

    func testAnExpiredTokenIsRefreshedTransparently() async throws {
        try await LiveServer.run(settings: ["TOKEN_TTL": "2"]) { server in
            let (user, password) = try await server.makeUser()
            let store = MemoryCredentialStore()
            let til = server.client(store: store)
            let token = try await til.login(username: user.username, password: password)
            try await pause(2.2)

            let me = try await til.me().id
            XCTAssertEqual(me, user.id)
            let refreshes = try await server.refreshCount(of: user)
            XCTAssertEqual(refreshes, 1)
            let credentials = await store.load().credentials
            let stored = try XCTUnwrap(credentials.first)
            XCTAssertEqual(stored.sessionID, token.id, "a refresh keeps the session")
            XCTAssertNotEqual(stored.accessToken, token.value)
            XCTAssertNotEqual(stored.refreshToken, token.refreshToken, "the refresh token rotated")
        }
    }

    func testTwentyConcurrentCallsWithAnExpiredTokenRefreshOnce() async throws {
        try await LiveServer.run(settings: ["TOKEN_TTL": "2"]) { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            try await pause(2.2)

            let ids = try await withThrowingTaskGroup(of: UUID.self) { group in
                for _ in 0..<20 { group.addTask { try await til.me().id } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(ids, Array(repeating: user.id, count: 20))
            let refreshes = try await server.refreshCount(of: user)
            XCTAssertEqual(refreshes, 1, "one refresh for twenty waiting calls")
            let sessions = try await server.liveSessions(of: user)
            XCTAssertEqual(sessions, 1, "no refresh-token reuse revoked the session")
        }
    }

    func testTwentyCallsRefusedWithInvalidTokenShareOneRefresh() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let store = MemoryCredentialStore()
            let til = server.client(store: store)
            try await til.login(username: user.username, password: password)
            // The server stops taking the access token although it looks valid to the client.
            try await store.update { stored in
                stored.credentials[0].accessToken = "revoked-" + stored.credentials[0].accessToken
            }

            let log = RequestLog()
            let logged = server.client(store: store) { $0.steps = [log] }
            let ids = try await withThrowingTaskGroup(of: UUID.self) { group in
                for _ in 0..<20 { group.addTask { try await logged.me().id } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(ids.count, 20)
            let refreshes = try await server.refreshCount(of: user)
            XCTAssertEqual(refreshes, 1)
            let sends = await log.entries.filter { $0.path == "/api/users/me" }
            XCTAssertEqual(sends.count, 40, "each call sent twice: refused once, then with the renewed token")
        }
    }

    func testARevokedSessionIsReportedAndForgotten() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let store = MemoryCredentialStore()
            let til = server.client(store: store)
            try await til.login(username: user.username, password: password)
            let me = try await til.me().id
            XCTAssertEqual(me, user.id)

            let elsewhere = server.client()
            try await elsewhere.login(username: user.username, password: password)
            try await elsewhere.logoutEverywhere()

            await assertNotAuthenticated { try await til.me() }
            let stored = await store.load()
            XCTAssertTrue(stored.isEmpty, "a refused refresh clears the store")
            await assertNotAuthenticated { try await til.acronyms.create(short: "A", long: "B") }
            let refreshes = try await server.refreshCount(of: user)
            XCTAssertEqual(refreshes, 0)
        }
    }

    func testLogoutEndsTheSessionAndLaterCallsAreNotAuthenticated() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            let sessionsBefore = try await server.liveSessions(of: user)
            XCTAssertEqual(sessionsBefore, 1)
            try await til.logout()
            let sessionsAfter = try await server.liveSessions(of: user)
            XCTAssertEqual(sessionsAfter, 0)
            await assertNotAuthenticated { try await til.me() }
        }
    }
}
