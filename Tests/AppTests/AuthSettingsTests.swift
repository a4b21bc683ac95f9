import Foundation
import Logging
import Web
import XCTest
@testable import App

/// The token lifecycle's settings and the trusted-proxy rules: pure, no database.
final class AuthSettingsTests: XCTestCase {
    func testDefaults() throws {
        let settings = try AuthSettings.load(from: [:])
        XCTAssertEqual(settings.tokenTTL, .seconds(3600))
        XCTAssertEqual(settings.refreshTokenTTL, .seconds(30 * 24 * 3600))
        XCTAssertEqual(settings.refreshReuseGrace, .zero)
        XCTAssertEqual(settings.loginMaxFailures, 10)
        XCTAssertEqual(settings.loginWindow, .seconds(900))
        XCTAssertEqual(settings.acronymEditPolicy, .anyone)
        XCTAssertTrue(settings.trustedProxies.isEmpty)
    }

    func testValuesAreReadAndBadOnesRefusedWithTheirName() throws {
        let settings = try AuthSettings.load(from: [
            "TOKEN_TTL": "60", "REFRESH_TOKEN_TTL": "120", "REFRESH_REUSE_GRACE": "5", "LOGIN_MAX_FAILURES": "3",
            "LOGIN_WINDOW": "30", "ACRONYM_EDIT_POLICY": "Owner", "TRUSTED_PROXIES": "10.0.0.0/8, ::1",
        ])
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
            XCTAssertThrowsError(try AuthSettings.load(from: [name: value]), "\(name)=\(value)") { error in
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

    func testClientAddressIsThePeerUnlessThePeerIsATrustedProxy() throws {
        func request(peer: String?, forwardedFor: [String]) -> Request {
            var headers = HTTPHeaders()
            for value in forwardedFor { headers.add(name: "X-Forwarded-For", value: value) }
            return Request(method: .get, target: "/", headers: headers, remoteAddress: peer, logger: .init(label: "test"))
        }
        let none = TrustedProxies()
        XCTAssertEqual(none.clientAddress(of: request(peer: "127.0.0.1", forwardedFor: ["1.2.3.4"])), "127.0.0.1")

        let proxies = try TrustedProxies(parsing: "127.0.0.1,10.0.0.0/8,fd00::/8")
        // The right-most entry that is not a trusted proxy; entries left of it are the client's word.
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 1.2.3.4, 10.1.2.3"])), "1.2.3.4")
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "1.2.3.4"])), "1.2.3.4")
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "::ffff:127.0.0.1", forwardedFor: ["2001:db8::1"])), "2001:db8::1")
        // An untrusted peer's header is ignored; garbage in the header stops the walk at the peer.
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "192.0.2.9", forwardedFor: ["1.2.3.4"])), "192.0.2.9")
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, not-an-ip"])), "127.0.0.1")
        XCTAssertEqual(proxies.clientAddress(of: request(peer: "127.0.0.1", forwardedFor: [])), "127.0.0.1")
        XCTAssertTrue(proxies.trusts("fd12::1"))
        XCTAssertFalse(proxies.trusts("11.0.0.1"))
    }
}
