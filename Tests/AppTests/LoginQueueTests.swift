import App
import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest

/// Logins wait for bcrypt in a bounded queue: past `LOGIN_QUEUE_LIMIT` a login is refused with
/// 503 and `Retry-After` instead of piling up.
final class LoginQueueTests: XCTestCase {
    func testLoginsBeyondTheQueueLimitAre503WithRetryAfter() async throws {
        // Cost 10 (the admin's hash is made at that cost) keeps the hashers busy long enough for
        // twelve simultaneous logins to find the one waiting place taken. The throttle counts
        // attempts in flight, so its limits (the pair's and the account backoff's threshold of
        // 10) are raised above twelve: no 429 here.
        let settings = [
            "BCRYPT_COST": "10", "LOGIN_QUEUE_LIMIT": "1", "LOGIN_MAX_WAIT": "30", "LOGIN_MAX_FAILURES": "100",
            "LOGIN_ACCOUNT_BACKOFF_THRESHOLD": "100",
        ]
        try await withTestApp(settings: settings) { app in
            let client = app.client
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.login("admin", "password") }
                }
                var responses: [TestResponse] = []
                for try await response in group { responses.append(response) }
                return responses
            }
            let statuses = responses.map(\.status.code)
            XCTAssertTrue(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            XCTAssertGreaterThanOrEqual(statuses.filter { $0 == 200 }.count, 1, "\(statuses)")
            let refused = responses.filter { $0.status.code == 503 }
            XCTAssertGreaterThanOrEqual(refused.count, 1, "\(statuses)")
            for response in refused {
                let retryAfter = response.headers["Retry-After"].flatMap { Int($0) }
                XCTAssertNotNil(retryAfter, "503 without a Retry-After in seconds")
                XCTAssertGreaterThanOrEqual(retryAfter ?? 0, 1)
            }
            // Each refusal is counted as a login rejected busy, each 200 as a success.
            let metrics = PrometheusText(try await client.send(.get, "/metrics").bodyString)
            XCTAssertEqual(metrics.value("til_logins_total", ["outcome": "rejected_busy"]), Double(refused.count))
            XCTAssertEqual(metrics.value("til_logins_total", ["outcome": "success"]), Double(statuses.count - refused.count))
            // Each login was counted by the throttle before it queued: the successes took their
            // attempts back, and the refused ones, never checked, released theirs.
            let counted = try await app.til.db.query("SELECT count(*)::int AS n FROM login_failures")
            XCTAssertEqual(try counted.first?.decode(column: "n", as: Int.self), 0)
        }
    }
}
