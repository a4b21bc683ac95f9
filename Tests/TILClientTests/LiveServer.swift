import AppTesting
import Crypt
import Foundation
import Logging
import Postgres
import TILClient
import Web
import WebTesting
import XCTest
@testable import App

/// A real TIL server on a free loopback port, in this process, for the client's tests: the
/// client reaches it over TCP through URLSession like any other client would. AppTesting's
/// `TestApp` in `.live` mode, so the database is emptied and reseeded before each test; each
/// test still makes its own users (`makeUser`) and counts only their rows.
final class LiveServer: Sendable {
    let til: TIL
    let url: URL
    /// The server's clock for second factors (TOTP steps, mfaToken expiry): tests move it.
    let clock: TestClock

    private init(til: TIL, url: URL, clock: TestClock) {
        self.til = til
        self.url = url
        self.clock = clock
    }

    /// Runs `body` against a fresh server; `settings` are environment variables for the app
    /// (`["TOKEN_TTL": "1"]`), on top of the test defaults (bcrypt cost 4).
    static func run<R>(settings: [String: String] = [:], _ body: (LiveServer) async throws -> R) async throws -> R {
        let clock = TestClock()
        return try await TestApp.run(.live, settings: settings, clock: clock.clock) { app in
            try await body(LiveServer(til: app.til, url: URL(string: "http://127.0.0.1:\(app.app.boundPort)")!, clock: clock))
        }
    }

    /// A new user of this test alone.
    func makeUser(
        name: String = "Client Tester", password: String = "password", cost: Int = 4
    ) async throws -> (user: TestUser, password: String) {
        let user = try await UserRepository(db: til.db).create(
            name: name, username: "client-\(UUID().uuidString.prefix(12).lowercased())", passwordHash: try Bcrypt.hash(password, cost: cost))
        return (TestUser(id: user.id, name: user.name, username: user.username), password)
    }

    /// A client of this server with its own in-memory store unless given one.
    func client(store: any CredentialStore = MemoryCredentialStore(), configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        var configuration = APIClient.Configuration()
        configure(&configuration)
        return APIClient(server: url, store: store, configuration: configuration)
    }

    /// How many times the sessions of `user` were refreshed, counted in the database: every
    /// refresh stores a refresh token with a parent, a login one without.
    func refreshCount(of user: TestUser) async throws -> Int {
        let rows = try await til.db.query("""
            SELECT count(*)::int8 AS n FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
            WHERE s.user_id = \(user.id) AND r.parent_id IS NOT NULL
            """)
        return Int(try rows.first?.decode(column: "n", as: Int64.self) ?? 0)
    }

    /// How many live sessions `user` has.
    func liveSessions(of user: TestUser) async throws -> Int {
        let rows = try await til.db.query("""
            SELECT count(*)::int8 AS n FROM sessions WHERE user_id = \(user.id) AND revoked_at IS NULL
            """)
        return Int(try rows.first?.decode(column: "n", as: Int64.self) ?? 0)
    }
}

/// A user as a client knows it: the public fields and the name to log in with.
struct TestUser: Sendable {
    var id: UUID
    var name: String
    var username: String
    var asPublic: PublicUser { PublicUser(id: id, name: name, username: username) }
}

extension LiveServer {
    /// Ends every session of `user` behind the client's back, as another device's logout-all would.
    /// Ends the lifetime of every access token of `user` now, so the next request that carries
    /// one gets 401 `invalid_token` (instead of sleeping through a short `TOKEN_TTL`).
    func expireAccessTokens(of user: TestUser) async throws {
        try await til.db.execute("""
            UPDATE tokens SET expires_at = now() - interval '1 second'
            WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(user.id))
            """)
    }

    /// The `amr` of a session, as the server recorded how it was authenticated.
    func amr(ofSession id: UUID) async throws -> [String] {
        let rows = try await til.db.query("SELECT array_to_string(amr, ' ') AS amr FROM sessions WHERE id = \(id)")
        return try XCTUnwrap(rows.first).decode(column: "amr", as: String.self).split(separator: " ").map(String.init)
    }

    func endAllSessions(of user: TestUser) async throws {
        try await til.db.execute("UPDATE sessions SET revoked_at = now() WHERE user_id = \(user.id) AND revoked_at IS NULL")
    }
}

/// Records what each request carried on its way out, and the status it got (a step closest
/// to the network: it sees every attempt).
actor RequestLog: RequestStep {
    private(set) var entries: [(method: String, path: String, authorization: String?)] = []
    private(set) var statuses: [Int] = []

    nonisolated func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        await record(request)
        let response = try await next(request)
        await record(response.status)
        return response
    }

    private func record(_ request: APIRequest) {
        entries.append((request.method, request.url?.path ?? request.path, request.headers["Authorization"]))
    }

    private func record(_ status: Int) {
        statuses.append(status)
    }
}

/// Sleeps `seconds` (each wait in these tests is short and explicit).
func pause(_ seconds: Double) async throws {
    try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}

/// Asserts that `work` throws `TILError.notAuthenticated`.
func assertNotAuthenticated(
    _ work: () async throws -> some Any, file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        _ = try await work()
        XCTFail("expected notAuthenticated", file: file, line: line)
    } catch TILError.notAuthenticated {
    } catch {
        XCTFail("expected notAuthenticated, got \(error)", file: file, line: line)
    }
}

/// Asserts that `work` throws `TILError.server` with this status, reason and challenge error.
func assertServerError(
    _ status: Int, _ reason: String, challenge: String? = nil,
    file: StaticString = #filePath, line: UInt = #line, _ work: () async throws -> some Any
) async {
    do {
        _ = try await work()
        XCTFail("expected \(status)", file: file, line: line)
    } catch TILError.server(let got, let said, let code) {
        XCTAssertEqual(got, status, said, file: file, line: line)
        XCTAssertEqual(said, reason, file: file, line: line)
        XCTAssertEqual(code, challenge, file: file, line: line)
    } catch {
        XCTFail("expected \(status), got \(error)", file: file, line: line)
    }
}
