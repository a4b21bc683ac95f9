import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Two `til-server` processes over one database behave as one service: a logout or a
/// throttle decided by one is honoured by the other at once (no per-process state).
final class TwoProcessTests: XCTestCase {
    private var servers: [ServerProcess] = []

    override func setUp() async throws {
        // A fresh, migrated test database (the same reset every AppTests case gets).
        try await withTestApp { _ in }
        let environment = try ServerProcess.testEnvironment(["BCRYPT_COST": "4", "LOGIN_MAX_FAILURES": "3", "LOG_LEVEL": "warning"])
        servers = [try ServerProcess(environment: environment)]
        servers.append(try ServerProcess(environment: environment))
        do {
            for server in servers { try await server.waitUntilHealthy() }
        } catch {
            for server in servers { await server.stop() }
            servers = []
            throw error
        }
    }

    override func tearDown() async throws {
        for server in servers {
            if hasFailed { print("til-server :\(server.port) output:\n\(server.output)") }
            await server.stop()
        }
        servers = []
    }

    func testLogoutOnOneProcessIsHonouredByTheOtherAtOnce() async throws {
        let (a, b) = (servers[0].client, servers[1].client)
        let login = try await a.session("admin")
        let before = try await b.meStatus(login.value)
        XCTAssertEqual(before, 200, "B accepts A's token")
        let logout = try await a.send(.post, "/api/users/logout", auth: .bearer(login.value))
        XCTAssertEqual(logout.status.code, 204)
        assertInvalidToken(try await b.send(.get, "/api/users/me", auth: .bearer(login.value)), "B after logout on A")
        let refresh = try await b.refreshStatus(login.refreshToken)
        XCTAssertEqual(refresh, 401, "B refuses the logged-out refresh token")
    }

    func testRefreshOnOneProcessIsSpentOnTheOther() async throws {
        let (a, b) = (servers[0].client, servers[1].client)
        let login = try await a.session("admin")
        let pair = try await b.refreshed(login.refreshToken)
        XCTAssertEqual(pair.id, login.id)
        assertInvalidToken(try await a.refresh(login.refreshToken), "A sees the refresh token spent by B")
        let revoked = try await b.meStatus(pair.value)
        XCTAssertEqual(revoked, 401, "the reuse on A revoked the session for B")
    }

    func testFailuresCountedOnOneProcessThrottleTheOther() async throws {
        let (a, b) = (servers[0].client, servers[1].client)
        for attempt in 1...3 {
            let failed = try await a.login("admin", "wrong-password")
            XCTAssertEqual(failed.status.code, 401, "failure \(attempt) on A")
        }
        let throttled = try await b.login("admin", "password")
        XCTAssertEqual(throttled.status.code, 429, "B: \(throttled.bodyString)")
        XCTAssertNotNil(throttled.headers["Retry-After"])
    }
}
