import Foundation
import TILClient
import XCTest

/// 429/503 answers are waited out as `Retry-After` says, within bounds; cancellation ends the wait.
final class RetryAndCancellationTests: XCTestCase {
    private let throttled = ["LOGIN_MAX_FAILURES": "1", "LOGIN_WINDOW": "2"]

    func testAThrottledLoginWaitsForRetryAfterThenSucceeds() async throws {
        try await LiveServer.run(settings: throttled) { server in
            let (user, password) = try await server.makeUser()
            let log = RequestLog()
            let til = server.client { $0.steps = [log] }
            do {
                try await til.login(username: user.username, password: "wrong-password")
                XCTFail("a wrong password logs nobody in")
            } catch TILError.server(let status, _, _) {
                XCTAssertEqual(status, 401)
            }

            let start = ContinuousClock.now
            try await til.login(username: user.username, password: password)
            let waited = ContinuousClock.now - start
            XCTAssertGreaterThanOrEqual(waited, .seconds(1), "Retry-After was honoured")
            XCTAssertLessThan(waited, .seconds(5))
            let logins = await log.entries.filter { $0.path == "/api/users/login" }.count
            XCTAssertEqual(logins, 3, "wrong password, 429, then the retry that worked")
            let me = try await til.me()
            XCTAssertEqual(me.id, user.id)
        }
    }

    func testAWaitLongerThanTheBoundIsNotWaited() async throws {
        try await LiveServer.run(settings: throttled) { server in
            let (user, password) = try await server.makeUser()
            let til = server.client { $0.retry.maxTotalWait = .milliseconds(500) }
            _ = try? await til.login(username: user.username, password: "wrong-password")
            let start = ContinuousClock.now
            do {
                try await til.login(username: user.username, password: password)
                XCTFail("throttled")
            } catch TILError.server(let status, let reason, _) {
                XCTAssertEqual(status, 429)
                XCTAssertTrue(reason.hasPrefix("Too many failed attempts"), reason)
            }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(1), "no wait beyond the bound")
        }
    }

    func testCancellationEndsARetryWaitAtOnce() async throws {
        try await LiveServer.run(settings: throttled) { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            _ = try? await til.login(username: user.username, password: "wrong-password")
            let start = ContinuousClock.now
            let login = Task { try await til.login(username: user.username, password: password) }
            try await pause(0.3)
            login.cancel()
            do {
                _ = try await login.value
                XCTFail("cancelled")
            } catch is CancellationError {
            }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(1), "cancelled during the Retry-After wait")
        }
    }

    func testLoginsRefusedWith503ComeBackWhenTheServerSays() async throws {
        // Cost 10 keeps the hashing threads busy long enough for six simultaneous logins to find
        // the one waiting place taken: some are answered 503 with Retry-After (1 s) and come
        // back in rounds of about three.
        try await LiveServer.run(settings: ["LOGIN_QUEUE_LIMIT": "1", "LOGIN_MAX_WAIT": "30"]) { server in
            let (user, password) = try await server.makeUser(cost: 10)
            let log = RequestLog()
            let logins = try await withThrowingTaskGroup(of: Token.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let client = server.client {
                            $0.steps = [log]
                            $0.retry.maxAttempts = 6
                        }
                        return try await client.login(username: user.username, password: password)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(logins.count, 6, "every login got through in the end")
            let statuses = await log.statuses
            XCTAssertGreaterThanOrEqual(statuses.filter { $0 == 503 }.count, 1, "\(statuses)")
            XCTAssertEqual(statuses.filter { $0 == 200 }.count, 6, "\(statuses)")
        }
    }

    func testCancellationEndsARequestInFlight() async throws {
        try await LiveServer.run { server in
            // A cost-13 hash keeps the login's answer away for most of a second.
            let (user, password) = try await server.makeUser(cost: 13)
            let til = server.client()
            let start = ContinuousClock.now
            let login = Task { try await til.login(username: user.username, password: password) }
            try await pause(0.1)
            login.cancel()
            do {
                _ = try await login.value
                XCTFail("cancelled")
            } catch is CancellationError {
            }
            XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(400), "the request was dropped, not awaited")
        }
    }
}
