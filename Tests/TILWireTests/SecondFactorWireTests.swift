import Foundation
import TILWire
import XCTest

/// The second factors' wire shapes, to the byte (what the server sends, what `til` and
/// TILClient will read): the login's 401 with an mfaToken, the second step's body, and the
/// fields a login answer and a session gain.
final class SecondFactorWireTests: XCTestCase {
    private func sortedText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testTheMFARequiredAnswer() throws {
        let answer = MFARequired(mfaToken: "tok", methods: ["totp", "recovery_code"])
        XCTAssertEqual(
            try sortedText(answer),
            #"{"error":true,"methods":["totp","recovery_code"],"mfaRequired":true,"mfaToken":"tok","reason":"A second factor is required."}"#)
        let decoded = try JSONDecoder().decode(MFARequired.self, from: Data(try sortedText(answer).utf8))
        XCTAssertEqual(decoded, answer)
    }

    func testRequestsLeaveOutTheProofNotGiven() throws {
        XCTAssertEqual(try sortedText(MFALoginRequest(mfaToken: "tok", code: "123456")), #"{"code":"123456","mfaToken":"tok"}"#)
        XCTAssertEqual(
            try sortedText(SecondFactorProofRequest(currentPassword: "pw", recoveryCode: "ABCD")),
            #"{"currentPassword":"pw","recoveryCode":"ABCD"}"#)
        XCTAssertEqual(
            try sortedText(PasswordChangeRequest(currentPassword: "a", newPassword: "b")), #"{"currentPassword":"a","newPassword":"b"}"#,
            "no code: the body of a server without second factors")
    }

    func testStatusEnrolmentAndCodes() throws {
        XCTAssertEqual(
            try sortedText(MFAStatus(totp: true, recoveryCodesRemaining: 9, passkeys: 0)),
            #"{"passkeys":0,"recoveryCodesRemaining":9,"totp":true}"#)
        XCTAssertEqual(
            try sortedText(TOTPEnrolment(secret: "S", otpauthURI: "otpauth://totp/TIL:a?secret=S&issuer=TIL", qrCodeSVG: "<svg/>")),
            #"{"otpauthURI":"otpauth://totp/TIL:a?secret=S&issuer=TIL","qrCodeSVG":"<svg/>","secret":"S"}"#)
        XCTAssertEqual(try JSONDecoder().decode(RecoveryCodes.self, from: Data(#"{"recoveryCodes":["A","B"]}"#.utf8)).recoveryCodes, ["A", "B"])
    }

    /// A login answer and a session from a server older than issue 20 still decode.
    func testNewFieldsAreOptional() throws {
        let session = #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","createdAt":"2026-11-23T12:00:00Z","#
            + #""lastUsedAt":"2026-11-23T12:00:00Z","expiresAt":"2026-11-23T13:00:00Z","refreshExpiresAt":"2026-12-23T12:00:00Z","#
            + #""scopes":[],"current":false"#
        XCTAssertNil(try JSONDecoder().decode(SessionInfo.self, from: Data((session + "}").utf8)).amr)
        let withAMR = try JSONDecoder().decode(SessionInfo.self, from: Data((session + #","amr":["pwd","otp","mfa"]}"#).utf8))
        XCTAssertEqual(withAMR.amr, ["pwd", "otp", "mfa"])
    }
}
