import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Guessing user codes: wrong codes are counted per browser session and per address in
/// PostgreSQL; past either limit the page answers 429 with `Retry-After`, even for a right code.
final class DeviceThrottleTests: XCTestCase {
    func testWrongCodesAreThrottledPerBrowserSessionThenPerAddress() async throws {
        // Two wrong codes per session, ten per address (`LoginThrottle.addressFactor`).
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "2"]) { app in
            let start = try await app.client.startedDevice()
            let wrong = start.userCode == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB"
            let first = BrowserClient(app.client)
            try await first.signIn("admin")
            for _ in 0..<2 {
                let again = try await first.enterUserCode(wrong)
                XCTAssertEqual(again.status, .badRequest)
                XCTAssertTrue(again.bodyString.contains("No device is waiting for that code"))
            }
            let throttled = try await first.enterUserCode(wrong)
            XCTAssertEqual(throttled.status, .tooManyRequests, throttled.bodyString)
            throttled.assertPageHeaders()
            XCTAssertEqual(throttled.headers["Retry-After"], "900")
            XCTAssertTrue(throttled.bodyString.contains("Too many wrong codes"))
            let right = try await first.enterUserCode(start.userCode)
            XCTAssertEqual(right.status, .tooManyRequests, "a right code waits too: guessing gains nothing")

            // Other sessions from the same address: the address's budget runs out.
            let second = BrowserClient(app.client)
            try await second.signIn("admin")
            let consent = try await second.enterUserCode(start.userCode)
            XCTAssertEqual(consent.status, .ok, "another session may still enter the right code")
            for _ in 0..<3 {
                let other = BrowserClient(app.client)
                try await other.signIn("admin")
                for _ in 0..<2 { _ = try await other.enterUserCode(wrong) }
            }
            let failures = try await app.number("SELECT count(*) AS n FROM login_failures WHERE username LIKE 'device:%'")
            XCTAssertEqual(failures, 9)
            let last = BrowserClient(app.client)
            try await last.signIn("admin")
            let ten = try await last.enterUserCode(wrong)
            XCTAssertEqual(ten.status, .badRequest, "the tenth failure is still within the address's budget")
            let fresh = BrowserClient(app.client)
            try await fresh.signIn("admin")
            let eleven = try await fresh.enterUserCode(wrong)
            XCTAssertEqual(eleven.status, .tooManyRequests, "the eleventh from this address")
            let blocked = try await second.submit(try HTMLForm.only(in: consent), clicking: (name: "decision", value: "approve"))
            XCTAssertEqual(blocked.status, .tooManyRequests, "the address is over its budget for decisions too")
        }
    }
}
