import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import TILWire
import Web
import WebTesting
import XCTest
@testable import App

/// TOTP enrolment through the API behind a balancer: two `til-server` processes over one
/// database. A secret started on one is confirmed on the other; one code raced to both turns
/// TOTP on once, with one set of recovery codes; the account's name in the otpauth URI is the
/// stored (NFC) spelling whichever spelling logged in. The servers run on the real clock.
final class TOTPEnrolmentAcrossProcessesTests: ServerProcessTestCase {
    func testOneCodeConfirmingOnBothProcessesAtOnceTurnsTOTPOnOnce() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let user = try await User.create(username: "Zoë-otp", on: app)
            let token = try await b.session("ZOE\u{308}-OTP", scope: "account").value

            for trial in 1...3 {
                let started = try await a.send(.post, "/api/users/me/mfa/totp", auth: .bearer(token))
                XCTAssertEqual(started.status.code, 201, started.bodyString)
                let enrolment = try started.decode(TOTPEnrolment.self)
                XCTAssertTrue(enrolment.otpauthURI.hasPrefix("otpauth://totp/TIL:Zo%C3%AB-otp?"), enrolment.otpauthURI)
                let secret = try XCTUnwrap(Base32.decode(enrolment.secret))
                let code = TOTP(secret: secret).code(at: Date())
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for client in [a, b] {
                        group.addTask { try await client.send(.post, "/api/users/me/mfa/totp/confirm", json: ["code": code], auth: .bearer(token)) }
                    }
                    return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
                }
                XCTAssertEqual(answers.map(\.status.code).sorted(), [200, 409], "trial \(trial): \(answers.map(\.bodyString))")
                let codes = try XCTUnwrap(answers.first { $0.status.code == 200 }).decode(RecoveryCodes.self).recoveryCodes
                XCTAssertEqual(codes.count, 10)
                let status = try await a.send(.get, "/api/users/me/mfa", auth: .bearer(token)).decode(MFAStatus.self)
                XCTAssertEqual(status, MFAStatus(totp: true, recoveryCodesRemaining: 10, passkeys: 0), "trial \(trial)")
                let again = try await b.send(.post, "/api/users/me/mfa/totp", auth: .bearer(token))
                XCTAssertEqual(again.status.code, 409, "on while on: \(again.bodyString)")

                // Off again on the other process, with the password and a recovery code of the winning set.
                let off = try await b.send(
                    .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password", "recoveryCode": codes[trial]], auth: .bearer(token))
                XCTAssertEqual(off.status.code, 204, off.bodyString)
            }
            let stored = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(user.id)")
            XCTAssertEqual(stored, 0)
        }
    }
}
