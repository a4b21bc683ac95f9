import Foundation
import TILClient
import XCTest

/// One token per scope set, the least powerful one sent; the refresh-loop guard.
final class ScopesAndGuardTests: XCTestCase {
    func testTokensPerScopeSetLiveSideBySide() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let log = RequestLog()
            let til = server.client { $0.steps = [log] }
            let writer = try await til.login(username: user.username, password: password, scopes: [.acronymsWrite])
            let account = try await til.login(username: user.username, password: password, scopes: [.account])
            XCTAssertEqual(writer.scopes, [.acronymsWrite])
            let stored = try await til.credentials()
            XCTAssertEqual(Set(stored.credentials.map(\.scopes)), [ScopeSet([.acronymsWrite]), ScopeSet([.account])])

            _ = try await til.acronyms.create(short: "IRL", long: "In Real Life")
            _ = try await til.account.sessions()
            let sent = await log.entries
            XCTAssertEqual(sent.first { $0.path == "/api/acronyms" }?.authorization, "Bearer \(writer.value)")
            XCTAssertEqual(sent.first { $0.path == "/api/users/me/sessions" }?.authorization, "Bearer \(account.value)")
            await assertNotAuthenticated { try await til.categories.create(name: "no token may") }

            // Logging in again for a scope set replaces its token and ends the old session.
            try await til.login(username: user.username, password: password, scopes: [.acronymsWrite])
            let live = try await server.liveSessions(of: user)
            XCTAssertEqual(live, 2)
        }
    }

    func testTheRefreshLoopGuardStopsRefreshing() async throws {
        // Each round ends the access token's life in the database: the next call gets 401
        // `invalid_token` and refreshes once (a 1-second TOKEN_TTL, cut to whole seconds, could
        // leave a refreshed token a millisecond to live).
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client {
                $0.refreshLimit = 2
                $0.refreshWindow = .seconds(60)
            }
            try await til.login(username: user.username, password: password)
            for _ in 0..<2 {
                try await server.expireAccessTokens(of: user)
                _ = try await til.me()
            }
            try await server.expireAccessTokens(of: user)
            await assertNotAuthenticated { try await til.me() }
            let refreshes = try await server.refreshCount(of: user)
            XCTAssertEqual(refreshes, 2, "no third refresh within the window")
            let stored = try await til.credentials()
            XCTAssertEqual(stored.credentials.count, 1, "a guarded refresh is not a refused one: the login is kept")
        }
    }

    func testARefusedRefreshTokenIsNeverSentAgain() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let store = MemoryCredentialStore()
            let log = RequestLog()
            let til = server.client(store: store) { $0.steps = [log] }
            try await til.login(username: user.username, password: password)
            let saved = await store.load()
            try await server.endAllSessions(of: user)

            await assertNotAuthenticated { try await til.me() }
            try await store.update { $0 = saved }  // a stale copy comes back
            await assertNotAuthenticated { try await til.me() }
            let refreshes = await log.entries.filter { $0.path == "/api/users/refresh" }.count
            XCTAssertEqual(refreshes, 1, "the refused refresh token was not presented twice")
        }
    }
}
