import AppTesting
import Foundation
import Postgres
import TILClient
import WebTesting
import XCTest
@testable import App

/// The shared refresh token across processes: this process narrows a browser sign-in to new
/// scope sets while `til` processes, on the same credential file, renew its expired `account`
/// token (`til sessions`) — each presents the rotating refresh token the one before left
/// (`flock`), never a spent one.
final class NativeSignInAcrossProcessesTests: XCTestCase {
    func testNarrowingsHereAndRefreshesInTilProcessesKeepOneChain() async throws {
        try await BrowserLoginRun.with { app, run in
            let til = APIClient(server: app.serverURL, store: FileCredentialStore(directory: run.home.appendingPathComponent("til")))
            let signedIn = try await app.signInInBrowser(til)
            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second'")

            async let statuses = withThrowingTaskGroup(of: TILServerRun.self) { group in
                for _ in 0..<3 { group.addTask { try await run.til(["sessions", "--json"]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let narrowed = try await withThrowingTaskGroup(of: AccessToken.self) { group in
                for scopes: Set<Scope> in [[.acronymsWrite], [.categoriesWrite], [.usersWrite]] {
                    group.addTask { try await til.accessToken(scopes: scopes) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for status in try await statuses {
                XCTAssertEqual(status.status, 0, status.stderr)
            }
            XCTAssertEqual(Set(narrowed.map(\.scopes)), [ScopeSet([.acronymsWrite]), ScopeSet([.categoriesWrite]), ScopeSet([.usersWrite])])
            let live = try await app.number("SELECT count(*) AS n FROM sessions WHERE id = \(signedIn.token.id) AND revoked_at IS NULL")
            XCTAssertEqual(live, 1, "no refresh token was presented twice")
            let unspent = try await app.number("""
                SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(signedIn.token.id) AND revoked_at IS NULL AND spent_at IS NULL
                """)
            XCTAssertEqual(unspent, 1, "one chain")
            let renewed = try await app.number("SELECT count(*) AS n FROM refresh_tokens WHERE parent_id IS NOT NULL")
            XCTAssertEqual(renewed, 4, "three narrowings and one renewal, the other til processes took its pair")
            let stored = try run.storedCredentials()
            XCTAssertEqual(stored.count, 4)
            XCTAssertEqual(Set(stored.compactMap { $0["refreshToken"] as? String }).count, 1, "every scope set holds the live refresh token")
        }
    }
}
