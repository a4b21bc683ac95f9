import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Whatever a client sends to the second-factor endpoints, it gets a clear JSON error: 400
/// naming the field for a value that cannot be a code, 401 for an mfaToken that is not live,
/// never a 500 and never a token.
final class MFAInputTests: XCTestCase {
    func testMalformedBodiesToTheSecondStepAre400Or401() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            let code = enrolled.code(at: clock)
            let cases: [(String, Int, String)] = [
                (#"{"mfaToken": "\#(token)"}"#, 400, "Give 'code'"),
                (#"{"code": "\#(code)"}"#, 400, "mfaToken"),
                (#"{"mfaToken": "\#(token)", "code": 123456}"#, 400, "code"),
                (#"{"mfaToken": 5, "code": "\#(code)"}"#, 400, "mfaToken"),
                (#"{"mfaToken": "\#(token)", "code": "12345"}"#, 400, "'code' must be the 6 digits"),
                (#"{"mfaToken": "\#(token)", "code": "1234567"}"#, 400, "'code' must be the 6 digits"),
                (#"{"mfaToken": "\#(token)", "code": "12a456"}"#, 400, "'code' must be the 6 digits"),
                (#"{"mfaToken": "\#(token)", "code": "\#(String(repeating: "1", count: 129))"}"#, 400, "'code' must be at most 128 bytes"),
                (#"{"mfaToken": "\#(token)", "code": "123\u0000456"}"#, 400, ""),
                (#"{"mfaToken": "\#(token)", "code": "\#(code)", "recoveryCode": "\#(enrolled.recoveryCodes[0])"}"#, 400, "not both"),
                (#"{"mfaToken": "\#(token)", "recoveryCode": "ABCD-EFGH"}"#, 400, "'recoveryCode' must be one of the recovery codes"),
                (#"{"mfaToken": "\#(token)", "recoveryCode": "ABCD-EFGH-IJKL-MNOP-QRST-UVW1"}"#, 400, "'recoveryCode'"),
                (#"["not", "an", "object"]"#, 400, ""),
                ("not json", 400, ""),
                (#"{"mfaToken": "unknown-token", "code": "\#(code)"}"#, 401, "The mfaToken is no longer valid."),
                (#"{"mfaToken": "", "code": "\#(code)"}"#, 401, "The mfaToken is no longer valid."),
                (#"{"mfaToken": "\#(String(repeating: "x", count: 5000))", "code": "\#(code)"}"#, 401, "The mfaToken is no longer valid."),
            ]
            for (body, status, reason) in cases {
                let response = try await app.client.send(
                    .post, "/api/users/login/mfa", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
                XCTAssertEqual(response.status.code, status, "\(body.prefix(80)): \(response.bodyString)")
                let error = try response.decode(ErrorBody.self)
                XCTAssertTrue(reason.isEmpty || error.reason.contains(reason), "\(body.prefix(80)): \(error.reason)")
            }
            let response = try await app.completeLogin(["mfaToken": token, "code": code])
            XCTAssertEqual(response.status.code, 200, "malformed requests neither spent nor ended the token: \(response.bodyString)")
        }
    }

    func testMalformedProofsToTheAccountEndpointsAre400() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let bearer = TestAuth.bearer(enrolled.session.value)
            let requests: [(HTTPMethod, String, String)] = [
                (.post, "/api/users/me/mfa/totp/confirm", #"{}"#),
                (.post, "/api/users/me/mfa/totp/confirm", #"{"code": ["123456"]}"#),
                (.delete, "/api/users/me/mfa/totp", #"{"code": "123456"}"#),
                (.delete, "/api/users/me/mfa/totp", #"{"currentPassword": "password", "code": "abcdef"}"#),
                (.post, "/api/users/me/mfa/recovery-codes", #"{"currentPassword": "password", "recoveryCode": "x"}"#),
                (.put, "/api/users/me/password", #"{"currentPassword": "password", "newPassword": "new-password-1", "code": "1"}"#),
                (.post, "/api/users/me/mfa/recovery-codes", #"{"currentPassword": "pass\u0000word"}"#),
            ]
            for (method, path, body) in requests {
                let response = try await app.client.send(
                    method, path, headers: ["Content-Type": "application/json"], body: Array(body.utf8), auth: bearer)
                XCTAssertEqual(response.status.code, 400, "\(method) \(path) \(body): \(response.bodyString)")
                XCTAssertEqual(try response.decode(ErrorBody.self).error, true)
            }
            let without = try await app.client.send(.get, "/api/users/me/mfa")
            XCTAssertEqual(without.status.code, 401)
            let status = try await app.client.send(.get, "/api/users/me/mfa", auth: bearer).decode(MFAStatus.self)
            XCTAssertEqual(status.recoveryCodesRemaining, 10, "nothing was spent")
        }
    }

    /// A token without `account` cannot touch the second factors.
    func testTheAccountScopeIsNeeded() async throws {
        try await withMFAApp { app, _ in
            let user = try await User.create(on: app)
            let narrow = try await app.client.session(user.username, scope: "acronyms:write")
            let response = try await app.client.send(.post, "/api/users/me/mfa/totp", auth: .bearer(narrow.value))
            XCTAssertEqual(response.status.code, 403)
            let observed1 = try await app.number("SELECT count(*)::int AS n FROM totp_credentials")
            XCTAssertEqual(observed1, 0)
        }
    }
}
