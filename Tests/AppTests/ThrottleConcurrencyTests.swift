import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Issue 17: "Concurrent attempts all pass the throttle." The count was read, bcrypt ran, and
/// the failure was recorded afterwards, so 30 wrong logins sent at once with a limit of 3 ran
/// 22 password checks. An attempt is now counted, atomically, before its hash runs.
final class ThrottleConcurrencyTests: XCTestCase {
    /// Bcrypt cost 10 (the admin's hash is made at that cost when the test seeds it): each
    /// check takes long enough for all 30 attempts to be in flight together.
    func testConcurrentAttemptsDoNotAllPassTheThrottle() async throws {
        let capture = LogCapture()
        let settings = ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60", "BCRYPT_COST": "10"]
        try await withTestApp(settings: settings, logger: capture.logger()) { app in
            let client = app.client
            let statuses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<30 { group.addTask { try await client.login("admin", "wrong-password") } }
                var responses: [TestResponse] = []
                for try await response in group { responses.append(response) }
                return responses
            }
            let checked = statuses.filter { $0.status.code == 401 }
            let throttled = statuses.filter { $0.status.code == 429 }
            XCTAssertEqual(checked.count, 3, "password checks: \(statuses.map(\.status.code))")
            XCTAssertEqual(throttled.count, 27)
            for response in throttled { assertThrottled(response, window: 60) }
            let verifications = capture.lines.filter { $0.names("login.failed") }
            XCTAssertEqual(verifications.count, 3, "bcrypt verifications, as audited")
            XCTAssertEqual(capture.lines.filter { $0.names("login.throttled") }.count, 27)
        }
    }

    /// The address's cap over all usernames holds under concurrency too: 30 guesses at once,
    /// each at another name, from one address whose cap is 5 × 3.
    func testConcurrentGuessesAtManyUsernamesStopAtTheAddressCap() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60", "BCRYPT_COST": "10"]) { app in
            let client = app.client
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for guess in 0..<30 { group.addTask { try await client.login("nobody-\(guess)", "wrong-password").status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(codes.filter { $0 == 401 }.count, 15, "\(codes)")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 15, "\(codes)")
        }
    }

    /// A login that succeeds takes back the attempt it was counted as: the same user logging
    /// in often, even concurrently, never throttles itself.
    func testConcurrentSuccessfulLoginsAreNotCountedAsFailures() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            let client = app.client
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 { group.addTask { try await client.login("admin", "password").status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(codes.filter { $0 == 200 || $0 == 429 }.count, 6, "\(codes)")
            XCTAssertGreaterThanOrEqual(codes.filter { $0 == 200 }.count, 3, "while 3 are in flight, more wait: \(codes)")
            for attempt in 1...2 {
                let failed = try await client.login("admin", "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt): no success left a failure behind")
            }
            let success = try await client.login("admin", "password")
            XCTAssertEqual(success.status.code, 200, success.bodyString)
        }
    }
}
