import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What a client can get wrong on the reset routes: each answer a clear JSON 400 (or 413/415)
/// naming the problem, never a 500, and nothing counted, looked up or spent for it. And the
/// spellings a person may type: a login in NFD or another case names the same account, a
/// code in full-width digits with spaces and dashes is the same code.
final class PasswordResetInputTests: XCTestCase {
    func testBadRequestsAreClear400s() async throws {
        try await withTestApp { app in
            let cases: [(body: String, reason: String)] = [
                (#"{}"#, "login"),
                (#"{"login": 7}"#, "login"),
                (#"{"login": ""}"#, "'login' must not be empty."),
                (#"{"login": "   "}"#, "'login' must not be empty."),
                (#"{"login": "a\u0000b"}"#, "must not contain NUL"),
                (#"{"login": "a\u0007b"}"#, "'login' must not contain control characters."),
                (#"{"login": "\#(String(repeating: "a", count: 1025))"}"#, "'login' must be at most 1024 bytes."),
                (#"["login"]"#, "Dictionary"),
                (#"{"login": "timc""#, "not valid JSON"),
            ]
            for (body, reason) in cases {
                let response = try await app.client.send(
                    .post, "/api/users/password-reset", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
                XCTAssertEqual(response.status.code, 400, "\(body.prefix(40)): \(response.bodyString)")
                let answer = try response.decode(ErrorBody.self)
                XCTAssertTrue(answer.reason.contains(reason), "\(body.prefix(40)): \(answer.reason)")
            }
            let form = try await app.client.send(
                .post, "/api/users/password-reset", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array("login=timc".utf8))
            XCTAssertEqual(form.status.code, 415, form.bodyString)
            let counted = try await app.number("SELECT count(*)::int AS n FROM password_reset_requests")
            XCTAssertEqual(counted, 0, "no bad request is counted against the address")
        }
    }

    func testBadConfirmationsAreClear400s() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let cases: [(fields: [String: String], reason: String)] = [
                ([:], "token"),
                (["token": token], "'newPassword' is required."),
                (["token": token, "newPassword": "short"], "'newPassword' must be at least 8 bytes."),
                (["token": token, "newPassword": String(repeating: "é", count: 37)], "'newPassword' must be at most 72 bytes."),
                (["token": token, "newPassword": "nul\u{0}-inside-it"], "must not contain NUL"),
                (["token": token, "newPassword": "iloveyou"], "'newPassword' is one of the 30,000 most common passwords"),
                (["token": token, "newPassword": "long-enough-pw", "code": "123456"], "Give 'code', 'recoveryCode' or 'passkey' with the 'mfaToken'"),
                (["token": token, "mfaToken": "x"], "Give 'code' (from the authenticator app), 'recoveryCode' or 'passkey' with the 'mfaToken'."),
                (["token": token, "mfaToken": "x", "code": "12345"], "'code' must be the 6 digits"),
                (["token": token, "mfaToken": "x", "code": "1", "recoveryCode": "2"], "not both"),
                (["token": "", "newPassword": "long-enough-pw"], PasswordResetRefusal.tokenGone.reason),
                (["token": String(repeating: "t", count: 100_000), "newPassword": "long-enough-pw"], PasswordResetRefusal.tokenGone.reason),
                (["token": token + "x", "newPassword": "long-enough-pw"], PasswordResetRefusal.tokenGone.reason),
            ]
            for (fields, reason) in cases {
                let response = try await app.confirmReset(fields)
                XCTAssertEqual(response.status.code, 400, "\(fields.keys.sorted()): \(response.bodyString.prefix(200))")
                XCTAssertTrue(try response.decode(ErrorBody.self).reason.contains(reason), "\(fields.keys.sorted()): \(response.bodyString.prefix(200))")
            }
            let wrongType = try await app.client.send(
                .post, "/api/users/password-reset/confirm", headers: ["Content-Type": "application/json"],
                body: Array(#"{"token": ["a"], "newPassword": "long-enough-pw"}"#.utf8))
            XCTAssertEqual(wrongType.status.code, 400, wrongType.bodyString)
            let done = try await app.confirmReset(["token": token, "newPassword": "long-enough-pw"])
            XCTAssertEqual(done.status.code, 204, "no refusal spent the reset: \(done.bodyString)")
        }
    }

    func testALoginInAnyCaseOrNormalisationFormNamesTheAccount() async throws {
        try await withTestApp { app in
            let (user, email) = try await app.userWithVerifiedEmail(username: "Zoë", email: "zoë@mail.example")
            let spellings = [
                "zoë", "ZOË", "Zoe\u{0308}", "ZOE\u{0308}",  // NFD: e + combining diaeresis
                "ZOË@MAIL.EXAMPLE", "zoe\u{0308}@mail.example",
            ]
            for (index, login) in spellings.enumerated() {
                if index == 3 {  // three mails an hour: later spellings must still reach the account
                    try await app.til.db.execute("UPDATE password_reset_requests SET requested_at = requested_at - interval '2 hours'")
                }
                let answer = try await app.requestReset(login)
                XCTAssertEqual(answer.status.code, 202, login)
                let mails = try await app.mails(.passwordReset, to: email)
                XCTAssertEqual(mails, index + 1, "\(login) names \(user.username)")
            }
            let decoys = try await app.decoys(.passwordReset)
            XCTAssertEqual(decoys, 0)
        }
    }

    func testAUsernameWinsOverAnotherAccountsEmail() async throws {
        try await withTestApp { app in
            let (named, namedEmail) = try await app.userWithVerifiedEmail(username: "pat@mail.example")
            let (_, otherEmail) = try await app.userWithVerifiedEmail(email: "PAT@mail.example")
            _ = try await app.requestReset("pat@mail.example")
            let toNamed = try await app.mails(.passwordReset, to: namedEmail)
            let toOther = try await app.mails(.passwordReset, to: otherEmail)
            XCTAssertEqual([toNamed, toOther], [1, 0], "the username \(named.username) wins")
        }
    }

    func testCodesInFullWidthDigitsWithSpacesAndDashesWork() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
            let mfaToken = try await PasswordResetSecondFactorTests.secondStep(app, token, password: "wanted-new-secret")
            let code = enrolled.code(at: clock)
            let fullWidth = String(code.unicodeScalars.map { Character(Unicode.Scalar($0.value - 0x30 + 0xFF10)!) })
            let typed = fullWidth.prefix(3) + " \u{2010}" + fullWidth.dropFirst(3)  // "１２３ ‐４５６"
            let done = try await app.confirmReset(["token": token, "mfaToken": mfaToken, "code": String(typed)])
            XCTAssertEqual(done.status.code, 204, "\(typed): \(done.bodyString)")
        }
    }
}
