import AppTesting
import Crypt
import Foundation
import OneTimePasswords
import Postgres
import QRCode
import Web
import WebTesting
import XCTest
@testable import App

/// Enrolment: a pending secret (160 bits, an otpauth URI, a small QR code SVG), turned on only
/// by a code from it, which answers ten recovery codes once; the secret sealed at rest.
final class TOTPEnrolmentTests: XCTestCase {
    func testStartingAnEnrolmentAnswersTheSecretURIAndQRCode() async throws {
        try await withMFAApp { app, _ in
            let user = try await User.create(username: "tim c", on: app)
            let session = try await app.client.session(user.username, scope: "account")
            let response = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value))
            XCTAssertEqual(response.status.code, 201, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let enrolment = try response.decode(TOTPEnrolment.self)
            XCTAssertEqual(Base32.decode(enrolment.secret)?.count, 20, "160 bits")
            XCTAssertEqual(enrolment.otpauthURI, "otpauth://totp/TIL:tim%20c?secret=\(enrolment.secret)&issuer=TIL")
            let svg = enrolment.qrCodeSVG
            XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg)
            XCTAssertLessThan(svg.utf8.count, 40_000, "a small SVG")
            for forbidden in ["<script", "href", "onload", "<image", "foreignObject"] {
                XCTAssertFalse(svg.contains(forbidden), forbidden)
            }
            XCTAssertEqual(try QRCode(encoding: enrolment.otpauthURI).svg(pixelsPerModule: 4), svg, "the URI's own symbol")

            let status = try await app.client.send(.get, "/api/users/me/mfa", auth: .bearer(session.value)).decode(MFAStatus.self)
            XCTAssertEqual(status, MFAStatus(totp: false, recoveryCodesRemaining: 0, passkeys: 0), "pending is not on")
            let login = try await app.client.login(user.username)
            XCTAssertEqual(login.status.code, 200, "nothing is active until confirmed")
        }
    }

    func testConfirmingTurnsTOTPOnAndAnswersTenRecoveryCodesOnce() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let codes = enrolled.recoveryCodes
            XCTAssertEqual(codes.count, 10)
            XCTAssertEqual(Set(codes).count, 10)
            for code in codes {
                XCTAssertNotNil(code.range(of: "^[A-Z2-7]{4}(-[A-Z2-7]{4}){5}$", options: .regularExpression), code)
            }
            let stored = try await app.til.db.query("SELECT digest FROM recovery_codes WHERE user_id = \(enrolled.user.id)")
                .map { try $0.decode(column: "digest", as: String.self) }
            XCTAssertEqual(Set(stored), Set(codes.map { SHA256.hex(of: $0.replacingOccurrences(of: "-", with: "")) }), "digests only")
            let status = try await app.client.send(.get, "/api/users/me/mfa", auth: .bearer(enrolled.session.value))
            XCTAssertEqual(try status.decode(MFAStatus.self), MFAStatus(totp: true, recoveryCodesRemaining: 10, passkeys: 0))
            XCTAssertFalse(status.bodyString.contains(Base32.encode(enrolled.secret)), "never the secret")

            let again = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(enrolled.session.value))
            XCTAssertEqual(again.status.code, 409, "no new enrolment while on")
            let reconfirm = try await app.client.send(
                .post, "/api/users/me/mfa/totp/confirm", json: ["code": enrolled.code(at: clock)], auth: .bearer(enrolled.session.value))
            XCTAssertEqual(reconfirm.status.code, 409, "the codes are shown once")
        }
    }

    func testAWrongCodeOrNoPendingEnrolmentConfirmsNothing() async throws {
        try await withMFAApp { app, clock in
            let user = try await User.create(on: app)
            let session = try await app.client.session(user.username, scope: "account")
            let none = try await app.client.send(.post, "/api/users/me/mfa/totp/confirm", json: ["code": "123456"], auth: .bearer(session.value))
            XCTAssertEqual(none.status.code, 409, none.bodyString)

            let first = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value)).decode(TOTPEnrolment.self)
            let second = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(session.value)).decode(TOTPEnrolment.self)
            XCTAssertNotEqual(first.secret, second.secret, "a new enrolment replaces the pending one")
            let stale = TOTP(secret: Base32.decode(first.secret)!).code(at: clock.now)
            let wrong = try await app.client.send(.post, "/api/users/me/mfa/totp/confirm", json: ["code": stale], auth: .bearer(session.value))
            XCTAssertEqual(wrong.status.code, 403, "the replaced secret's code: \(wrong.bodyString)")
            let right = TOTP(secret: Base32.decode(second.secret)!).code(at: clock.now)
            let confirmed = try await app.client.send(.post, "/api/users/me/mfa/totp/confirm", json: ["code": right], auth: .bearer(session.value))
            XCTAssertEqual(confirmed.status.code, 200, confirmed.bodyString)
        }
    }

    /// The secret is sealed: not in the row in any form, and bound to its user (copied to
    /// another user's row, it does not open).
    func testTheSecretIsSealedAndBoundToItsUser() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let other = try await app.enrolledUser(clock: clock)
            let row = try await app.til.db.query(
                "SELECT encode(sealed_secret, 'hex') AS hex FROM totp_credentials WHERE user_id = \(enrolled.user.id)")
            let hex = try XCTUnwrap(row.first).decode(column: "hex", as: String.self)
            XCTAssertFalse(hex.contains(enrolled.secret.map { String(format: "%02x", $0) }.joined()))
            let repository = TOTPCredentialRepository(db: app.til.db, secretKey: app.til.configuration.secretKey)
            let opened = try await repository.credential(of: enrolled.user.id)
            XCTAssertEqual(opened?.secret, enrolled.secret)

            try await app.til.db.execute("""
                UPDATE totp_credentials SET sealed_secret = (SELECT sealed_secret FROM totp_credentials WHERE user_id = \(enrolled.user.id))
                WHERE user_id = \(other.user.id)
                """)
            do {
                _ = try await repository.credential(of: other.user.id)
                XCTFail("another user's sealed secret opened")
            } catch let error as Abort {
                XCTAssertEqual(error.status, .internalServerError)
            }
        }
    }
}
