import Foundation
import XCTest
@testable import App

/// `LOGIN_ACCOUNT_BACKOFF_*`: the knobs, their waits and the bound they give (pure, no database;
/// the server's behaviour is `LockoutByStrangersTests`).
final class AccountBackoffTests: XCTestCase {
    func testDefaultsDoubleFromOneSecondToHalfAnHourAfterTenFailures() throws {
        let backoff = try AuthSettings(reader: ConfigReader(environment: [:])).accountBackoff
        XCTAssertEqual(backoff, AccountBackoff())
        XCTAssertEqual([backoff.threshold], [10])
        XCTAssertEqual([backoff.base, backoff.max, backoff.window], [.seconds(1), .seconds(1800), .seconds(86400)])
        XCTAssertNil(backoff.wait(afterFailures: 9))
        XCTAssertEqual((10...22).map { backoff.wait(afterFailures: $0) }, [
            1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1800, 1800,
        ].map { .seconds($0) })
        XCTAssertEqual(backoff.wait(afterFailures: 1_000_000), .seconds(1800), "no overflow, however many")
    }

    /// The numbers the README and SECURITY.md quote: 21 guesses in any hour, 67 in a day, from
    /// every address but those the user logged in from; the oracle of
    /// `LockoutByStrangersTests` agrees.
    func testTheDefaultsBoundGuessesPerHourAndPerDay() {
        let backoff = AccountBackoff()
        XCTAssertEqual(backoff.maxFailures(within: .seconds(3600)), 21)
        XCTAssertEqual(backoff.maxFailures(within: .seconds(86400)), 67)
        for (span, seconds) in [(0, 0.0), (1, 1), (5, 5), (3600, 3600), (86400, 86400)] {
            XCTAssertEqual(
                backoff.maxFailures(within: .seconds(span)),
                LockoutByStrangersTests.admittedBound(threshold: 10, base: 1, max: 1800, seconds: seconds), "\(span) s")
        }
    }

    func testKnobsAreReadAndAMaximumBeyondTheWindowIsRefused() throws {
        let settings = try AuthSettings(reader: ConfigReader(environment: [
            "LOGIN_ACCOUNT_BACKOFF_THRESHOLD": "3", "LOGIN_ACCOUNT_BACKOFF_BASE": "5",
            "LOGIN_ACCOUNT_BACKOFF_MAX": "60", "LOGIN_ACCOUNT_BACKOFF_WINDOW": "3600",
        ]))
        XCTAssertEqual(settings.accountBackoff.threshold, 3)
        XCTAssertEqual(settings.accountBackoff.wait(afterFailures: 5), .seconds(20))
        XCTAssertEqual(settings.loginFailureRetention, .seconds(3600), "kept while the backoff counts them")
        let shortWindow = ConfigReader(environment: ["LOGIN_ACCOUNT_BACKOFF_WINDOW": "600"])
        XCTAssertThrowsError(try AuthSettings(reader: shortWindow)) { error in
            XCTAssertEqual(
                "\(error)",
                "LOGIN_ACCOUNT_BACKOFF_MAX (1800 s) must not exceed LOGIN_ACCOUNT_BACKOFF_WINDOW (600 s): "
                    + "failures would be forgotten before the longest wait is over.")
        }
    }
}
