import Foundation
import XCTest
@testable import App

/// The token lifecycle's newer settings (issue 17), and the combination of lifetimes that
/// `til-server` refuses to start with.
final class TokenLifetimeSettingsTests: XCTestCase {
    func testDefaultsAndValues() throws {
        let defaults = try AuthSettings(reader: ConfigReader(environment: [:]))
        XCTAssertEqual(defaults.refreshRateLimit, 30)
        XCTAssertEqual(defaults.sessionMaxLifetime, .seconds(90 * 86400))
        XCTAssertEqual(defaults.tokenPurgeInterval, .seconds(300))
        let set = try AuthSettings(reader: ConfigReader(environment: [
            "REFRESH_RATE_LIMIT": "5", "SESSION_MAX_LIFETIME": "3600", "TOKEN_PURGE_INTERVAL": "2",
        ]))
        XCTAssertEqual([set.refreshRateLimit], [5])
        XCTAssertEqual([set.sessionMaxLifetime, set.tokenPurgeInterval], [.seconds(3600), .seconds(2)])
        for (name, value) in [("REFRESH_RATE_LIMIT", "0"), ("SESSION_MAX_LIFETIME", "0"), ("TOKEN_PURGE_INTERVAL", "1m")] {
            XCTAssertThrowsError(try AuthSettings(reader: ConfigReader(environment: [name: value])), "\(name)=\(value)") { error in
                XCTAssertTrue("\(error)".hasPrefix(name), "\(error)")
            }
        }
    }

    /// Issue 17: with `TOKEN_TTL > REFRESH_TOKEN_TTL`, a session is over (for logout and the
    /// session list) while its access token still works, so logout answered 204 and ended
    /// nothing. Refused at start now; equal lifetimes are fine.
    func testAnAccessTokenOutlivingItsRefreshTokenIsRefusedAtStart() async throws {
        XCTAssertNoThrow(try AuthSettings(reader: ConfigReader(environment: ["TOKEN_TTL": "600", "REFRESH_TOKEN_TTL": "600"])))
        XCTAssertThrowsError(try AuthSettings(reader: ConfigReader(environment: ["TOKEN_TTL": "7200", "REFRESH_TOKEN_TTL": "3600"])))
        let run = try await TILServerRun.run(["serve", "--port", "0"], environment: [
            "PATH": "/usr/bin:/bin", "ENVIRONMENT": "testing", "TOKEN_TTL": "7200", "REFRESH_TOKEN_TTL": "3600",
            "DATABASE_URL": "postgres://til@127.0.0.1:1/til",  // never reached: refused before (else exit 69)
        ], timeLimit: .seconds(20))
        run.assertFailure(78, mentioning: ["til-server: TOKEN_TTL (7200 s) must not exceed REFRESH_TOKEN_TTL (3600 s)"])
        XCTAssertEqual(run.stdout, "")
    }
}
