import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Failed-login throttling: per username, per client address, sliding window, proxies. The
/// address cases run live: the address a request comes from is the socket's.
final class ThrottleTests: XCTestCase {
    static let settings = ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "2"]

    func testThrottledAfterMaxFailuresEvenWithTheRightPassword() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for attempt in 1...3 {
                let failed = try await app.client.login(user.username, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt)")
            }
            let throttled = try await app.client.login(user.username, "password")
            assertThrottled(throttled, window: 2)
            let again = try await app.client.login(user.username, "password")
            assertThrottled(again, window: 2)  // the refused right password reset nothing
        }
    }

    func testUsernamesAreCountedCaseInsensitively() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(username: "casey-\(UUID().uuidString.lowercased())", on: app)
            for spelling in [user.username.uppercased(), user.username, user.username.capitalized] {
                let failed = try await app.client.login(spelling, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, spelling)
            }
            assertThrottled(try await app.client.login(user.username, "password"), window: 2)
        }
    }

    func testLoginWorksAgainOnceTheWindowHasPassed() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for _ in 1...3 { _ = try await app.client.login(user.username, "wrong-password") }
            assertThrottled(try await app.client.login(user.username, "password"), window: 2)
            try await pause(2.3)
            let again = try await app.client.login(user.username, "password")
            XCTAssertEqual(again.status.code, 200, again.bodyString)
        }
    }

    /// Failures leave the window one by one (sliding), not all at once when a fixed window
    /// that began with the first failure ends.
    func testTheWindowSlides() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for _ in 1...2 { _ = try await app.client.login(user.username, "wrong-password") }  // t = 0
            try await pause(1.4)
            _ = try await app.client.login(user.username, "wrong-password")  // t = 1.4
            assertThrottled(try await app.client.login(user.username, "password"), window: 2)
            try await pause(0.9)  // t = 2.3: the first two have left the window, the third has not
            for attempt in 1...2 {
                let failed = try await app.client.login(user.username, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt) after the first two left the window")
            }
            assertThrottled(try await app.client.login(user.username, "password"), window: 2)
        }
    }

    func testThrottledAttemptsAreNotCounted() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for _ in 1...3 { _ = try await app.client.login(user.username, "wrong-password") }
            try await pause(1.2)
            for _ in 1...3 {
                assertThrottled(try await app.client.login(user.username, "wrong-password"), window: 2)
            }
            // The failures left the window; the 429s, had they counted, would still be in it.
            try await pause(1.1)
            let again = try await app.client.login(user.username, "password")
            XCTAssertEqual(again.status.code, 200, again.bodyString)
        }
    }

    func testSuccessfulLoginResetsTheUsernamesCounter() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for _ in 1...2 { _ = try await app.client.login(user.username, "wrong-password") }
            let success = try await app.client.login(user.username, "password")
            XCTAssertEqual(success.status.code, 200)
            for attempt in 1...2 {
                let failed = try await app.client.login(user.username, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt) after the reset")
            }
            let again = try await app.client.login(user.username, "password")
            XCTAssertEqual(again.status.code, 200, again.bodyString)
        }
    }

    func testOneAddressIsThrottledAfterFiveTimesTheLimitAcrossUsernames() async throws {
        try await withTestApp(.live, settings: Self.settings) { app in
            let user = try await User.create(on: app)
            for attempt in 1...15 {
                let failed = try await app.client.login("nobody-\(attempt)", "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt)")
            }
            assertThrottled(try await app.client.login(user.username, "password"), window: 2)
        }
    }

    func testForwardedForIsIgnoredWithoutTrustedProxies() async throws {
        try await withTestApp(.live, settings: Self.settings) { app in
            for attempt in 1...15 {
                _ = try await app.client.login(
                    "nobody-\(attempt)", "wrong-password", headers: ["X-Forwarded-For": "203.0.113.\(attempt)"])
            }
            let fresh = try await app.client.login("admin", "password", headers: ["X-Forwarded-For": "198.51.100.9"])
            assertThrottled(fresh, window: 2)
        }
    }

    func testTrustedProxyCountsTheRightMostUntrustedForwardedAddress() async throws {
        var settings = Self.settings
        settings["TRUSTED_PROXIES"] = "127.0.0.1"
        try await withTestApp(.live, settings: settings) { app in
            for attempt in 1...15 {
                let failed = try await app.client.login(
                    "nobody-\(attempt)", "wrong-password", headers: ["X-Forwarded-For": "203.0.113.7"])
                XCTAssertEqual(failed.status.code, 401, "failure \(attempt)")
            }
            let sameClient = try await app.client.login("admin", "password", headers: ["X-Forwarded-For": "203.0.113.7"])
            assertThrottled(sameClient, window: 2)
            let viaTrusted = try await app.client.login("admin", "password", headers: ["X-Forwarded-For": "203.0.113.7, 127.0.0.1"])
            assertThrottled(viaTrusted, window: 2)

            let otherClient = try await app.client.login("admin", "password", headers: ["X-Forwarded-For": "198.51.100.9"])
            XCTAssertEqual(otherClient.status.code, 200, "another forwarded address is counted separately: \(otherClient.bodyString)")
            let spoofedLeft = try await app.client.login(
                "admin", "password", headers: ["X-Forwarded-For": "203.0.113.7, 198.51.100.9"])
            XCTAssertEqual(spoofedLeft.status.code, 200, "only the right-most untrusted entry counts: \(spoofedLeft.bodyString)")
        }
    }
}

/// Asserts the contract's 429: `Retry-After` in whole seconds from 1 to the window, JSON body.
func assertThrottled(_ response: TestResponse, window: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(response.status.code, 429, response.bodyString, file: file, line: line)
    let retryAfter = response.headers["Retry-After"].flatMap { Int($0) }
    XCTAssertNotNil(retryAfter, "Retry-After: \(response.headers["Retry-After"] ?? "missing")", file: file, line: line)
    if let retryAfter {
        XCTAssertTrue((1...window).contains(retryAfter), "Retry-After \(retryAfter)", file: file, line: line)
    }
    let answer = try? response.decode(ErrorAnswer.self)
    XCTAssertEqual(answer?.error, true, "JSON error body: \(response.bodyString)", file: file, line: line)
}
