import Foundation
import TILClient
import WebTesting
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
        // Every hashing thread busy and the one waiting place (LOGIN_QUEUE_LIMIT=1) taken by
        // jobs of the test's own: the six logins are answered 503 with Retry-After (1 s) until
        // a refusal has been seen and the jobs are let go; then they come back, in rounds of
        // about three as the queue allows, and all get through.
        try await LiveServer.run(settings: ["LOGIN_QUEUE_LIMIT": "1", "LOGIN_MAX_WAIT": "30"]) { server in
            let (user, password) = try await server.makeUser()
            let log = RequestLog()
            let held = try await HeldWorkers(queued: 1)
            let logins = Task {
                try await withThrowingTaskGroup(of: Token.self) { group in
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
            }
            let refusedWhileHeld = await eventually(within: .seconds(10)) { await log.statuses.contains(503) }
            await held.release()
            let tokens = try await logins.value
            XCTAssertTrue(refusedWhileHeld, "no 503 while the hashing queue was full")
            XCTAssertEqual(tokens.count, 6, "every login got through in the end")
            let statuses = await log.statuses
            XCTAssertGreaterThanOrEqual(statuses.filter { $0 == 503 }.count, 1, "\(statuses)")
            XCTAssertEqual(statuses.filter { $0 == 200 }.count, 6, "\(statuses)")
            XCTAssertEqual(Set(statuses), [200, 503], "\(statuses)")
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
