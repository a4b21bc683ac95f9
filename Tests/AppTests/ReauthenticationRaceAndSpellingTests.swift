import AppTesting
import Crypt
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Re-authentication under pressure and in other spellings: one TOTP code raced by two
/// re-authentications renews once; usernames in NFD or upper case sign in and step up as
/// their stored NFC name; a password is compared exactly as typed (NFD is not NFC), as a
/// login compares it; a code typed in full-width digits is the same code.
final class ReauthenticationRaceAndSpellingTests: XCTestCase {
    func testTwoReauthenticationsRacingWithOneCodeSucceedOnce() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(username: "kylo", clock: clock)
            let (token, code) = (enrolled.session.value, enrolled.code(at: clock))
            let client = app.client
            var requests: [@Sendable () async throws -> TestResponse] = []
            for _ in 0..<4 {
                requests.append { try await client.send(.post, "/api/users/me/reauth", json: ["password": "password", "code": code], auth: .bearer(token)) }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes.sorted(), [204, 403, 403, 403], "one step, one success")
        }
    }

    func testUsernamesInOtherSpellingsReauthenticateAsTheirAccount() async throws {
        try await withTestApp { app in
            let stored = "Zoë-Élan"  // NFC, as UsernameRules stores it
            _ = try await User.create(username: stored, on: app)
            for spelling in [stored.decomposedStringWithCanonicalMapping, stored.uppercased()] {
                let session = try await app.client.session(spelling, scope: "account")
                try await app.ageAuthentication(of: session.id)
                assertStepUp(try await app.client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(session.value)))
                let renewed = try await app.reauth(session.value, ["password": "password"])
                XCTAssertEqual(renewed.status.code, 204, "\(spelling.debugDescription): \(renewed.bodyString)")
                let options = try await app.client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(session.value))
                XCTAssertEqual(options.status.code, 200, options.bodyString)
                XCTAssertTrue(options.bodyString.contains(#""name":"\#(stored)""#), "the stored name: \(options.bodyString)")
            }
        }
    }

    /// ASVS 6.2.8: a password is verified exactly as received; the NFD spelling of an NFC
    /// password is another password, for a re-authentication as for a login.
    func testAPasswordIsComparedExactlyAsTyped() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app in
            let password = "crème-brûlée-42"
            let user = try await UserRepository(db: app.til.db)
                .create(name: "Chef", username: "chef", passwordHash: try Bcrypt.hash(password, cost: 4))
            let session = try await app.client.session(user.username, password, scope: "account")
            let nfd = password.decomposedStringWithCanonicalMapping
            XCTAssertNotEqual(Array(nfd.utf8), Array(password.utf8))
            let login = try await app.client.login(user.username, nfd)
            XCTAssertEqual(login.status.code, 401, "the login refuses the other bytes")
            assertRefused(try await app.reauth(session.value, ["password": nfd]), 403, mentioning: "password is wrong")
            let exact = try await app.reauth(session.value, ["password": password])
            XCTAssertEqual(exact.status.code, 204, exact.bodyString)
        }
    }

    func testAFullWidthCodeWithSpacesIsTheSameCode() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(username: "finn", clock: clock)
            let code = enrolled.code(at: clock)
            let typed = MFASpellingTests.fullWidth("\(code.prefix(3)) \(code.suffix(3))")
            let renewed = try await app.reauth(enrolled.session.value, ["password": "password", "code": typed])
            XCTAssertEqual(renewed.status.code, 204, "\(typed.debugDescription): \(renewed.bodyString)")
        }
    }
}
