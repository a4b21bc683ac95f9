import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Login timings a client can measure: a throttled login runs no bcrypt, and an unknown
/// username costs what a wrong password costs (no user enumeration by timing). Bcrypt cost 10
/// (the admin's hash is made at that cost by the migration) so the hash dominates the noise.
final class LoginTimingTests: XCTestCase {
    func testThrottledLoginIsAnsweredWithoutBcrypt() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "10", "LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            var real: [Double] = []
            for _ in 0..<5 {
                real.append(try await seconds {
                    let response = try await app.client.login("admin", "password")
                    XCTAssertEqual(response.status.code, 200)
                })
            }
            for _ in 1...3 { _ = try await app.client.login("admin", "wrong-password") }
            var throttled: [Double] = []
            for _ in 0..<5 {
                throttled.append(try await seconds {
                    let response = try await app.client.login("admin", "password")
                    XCTAssertEqual(response.status.code, 429)
                })
            }
            let realMedian = median(real), throttledMedian = median(throttled)
            XCTAssertLessThan(
                throttledMedian * 3, realMedian,
                "429 median \(Int(throttledMedian * 1000)) ms vs real login median \(Int(realMedian * 1000)) ms")
        }
    }

    func testUnknownUsernameTakesAsLongAsAWrongPassword() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "10", "LOGIN_MAX_FAILURES": "100"]) { app in
            _ = try await app.client.login("admin", "password")  // warm up connections and workers
            var wrongPassword: [Double] = []
            var unknownUser: [Double] = []
            for attempt in 0..<5 {
                wrongPassword.append(try await seconds {
                    let response = try await app.client.login("admin", "wrong-password")
                    XCTAssertEqual(response.status.code, 401)
                })
                unknownUser.append(try await seconds {
                    let response = try await app.client.login("nobody-\(attempt)", "wrong-password")
                    XCTAssertEqual(response.status.code, 401)
                })
            }
            let wrong = median(wrongPassword), unknown = median(unknownUser)
            let report = "unknown user median \(Int(unknown * 1000)) ms vs wrong password median \(Int(wrong * 1000)) ms"
            XCTAssertLessThan(unknown, wrong * 2, report)
            XCTAssertGreaterThan(unknown, wrong / 2, report)
        }
    }
}
