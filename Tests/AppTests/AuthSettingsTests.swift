import Foundation
import Logging
import Web
import XCTest
@testable import App

/// The token lifecycle's settings and the scope names: pure, no database.
final class AuthSettingsTests: XCTestCase {
    func testDefaults() throws {
        let settings = try AuthSettings(reader: ConfigReader(environment: [:]))
        XCTAssertEqual(settings.tokenTTL, .seconds(3600))
        XCTAssertEqual(settings.refreshTokenTTL, .seconds(30 * 24 * 3600))
        XCTAssertEqual(settings.refreshReuseGrace, .zero)
        XCTAssertEqual(settings.loginMaxFailures, 10)
        XCTAssertEqual(settings.loginWindow, .seconds(900))
        XCTAssertEqual(settings.acronymEditPolicy, .anyone)
        XCTAssertTrue(settings.trustedProxies.isEmpty)
    }

    func testValuesAreReadAndBadOnesRefusedWithTheirName() throws {
        let settings = try AuthSettings(reader: ConfigReader(environment: [
            "TOKEN_TTL": "60", "REFRESH_TOKEN_TTL": "120", "REFRESH_REUSE_GRACE": "5", "LOGIN_MAX_FAILURES": "3",
            "LOGIN_WINDOW": "30", "ACRONYM_EDIT_POLICY": "Owner", "TRUSTED_PROXIES": "10.0.0.0/8, ::1",
        ]))
        XCTAssertEqual(settings.tokenTTL, .seconds(60))
        XCTAssertEqual(settings.refreshTokenTTL, .seconds(120))
        XCTAssertEqual(settings.refreshReuseGrace, .seconds(5))
        XCTAssertEqual(settings.loginMaxFailures, 3)
        XCTAssertEqual(settings.loginWindow, .seconds(30))
        XCTAssertEqual(settings.acronymEditPolicy, .owner)
        for (name, value) in [
            ("TOKEN_TTL", "0"), ("TOKEN_TTL", "1h"), ("REFRESH_REUSE_GRACE", "-1"), ("LOGIN_MAX_FAILURES", "0"),
            ("ACRONYM_EDIT_POLICY", "admins"), ("TRUSTED_PROXIES", "10.0.0.0/33"), ("TRUSTED_PROXIES", "proxy.local"),
        ] {
            XCTAssertThrowsError(try AuthSettings(reader: ConfigReader(environment: [name: value])), "\(name)=\(value)") { error in
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
    }

    func testScopesParseInCanonicalOrderAndRefuseUnknownNames() throws {
        XCTAssertEqual(try Scope.parse("account acronyms:write account"), [.acronymsWrite, .account])
        XCTAssertEqual(try Scope.parse("users:write+categories:write"), [.categoriesWrite, .usersWrite])
        for bad in ["", "   ", "admin", "account root"] {
            XCTAssertThrowsError(try Scope.parse(bad)) { error in
                XCTAssertTrue((error as? Abort)?.reason.contains("invalid_scope") == true, "\(error)")
            }
        }
        XCTAssertEqual(Scope.stored("account retired:scope"), [.account])
    }
}
