import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// Issue 17: "The throttle key and the user lookup fold case differently." The lookup folds
/// case with PostgreSQL's `lower()`, and so must the throttle: `İ` (U+0130) lowers to `i` in
/// PostgreSQL but to `i̇` (`i` + U+0307) in Swift, so a key made by Swift gave `divinity` one
/// counter per spelling of its three `i`s — 24 guesses where the limit was 3.
final class ThrottleCaseFoldingTests: XCTestCase {
    func testTheThrottleKeyAndTheUserLookupFoldCaseAlike() async throws {
        let capture = LogCapture()
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"], logger: capture.logger()) { app in
            let user = try await User.create(username: "divinity", on: app)
            let spellings = Self.spellings(of: "divinity")
            XCTAssertEqual(spellings.count, 27)
            XCTAssertEqual(Set(spellings.map { $0.lowercased() }).count, 8, "Swift folds these into 8 different names")

            // The lookup finds the user under the dotted spelling: a guess there is a guess at `divinity`.
            let dotted = try await app.client.session("dİvİnİty")
            XCTAssertEqual(dotted.user.id, user.id)

            var checked = 0
            for _ in 1...3 {
                for spelling in spellings {
                    let response = try await app.client.login(spelling, "wrong-password")
                    if response.status.code == 401 { checked += 1 } else { assertThrottled(response, window: 60) }
                }
            }
            XCTAssertEqual(checked, 3, "password checks for one user across 81 attempts in 27 spellings")
            let failedLines = capture.lines.filter { $0.names("login.failed") }
            XCTAssertEqual(failedLines.count, 3, "bcrypt verifications, as audited")
            assertThrottled(try await app.client.login("DİVİNİTY", "password"), window: 60)
        }
    }

    /// Every spelling of `name` with each `i` written `i`, `I` or `İ`.
    static func spellings(of name: String) -> [String] {
        name.reduce([""]) { prefixes, character in
            let choices = character == "i" ? ["i", "I", "İ"] : [String(character)]
            return prefixes.flatMap { prefix in choices.map { prefix + $0 } }
        }
    }
}
