import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// Codes as people type them, and usernames spelled as the login accepts them: full-width
/// digits, spaces, dashes, lower case; the second step follows whatever spelling the first
/// step took.
final class MFASpellingTests: XCTestCase {
    /// `１２３４５６` is what a phone's full-width keyboard sends for 123456 (NFKC folds it).
    static func fullWidth(_ ascii: String) -> String {
        String(String.UnicodeScalarView(ascii.unicodeScalars.map { scalar in
            scalar.isASCII && scalar != " " && scalar != "-" ? Unicode.Scalar(scalar.value + 0xFEE0)! : scalar
        }))
    }

    func testCodesInFullWidthOrWithSpacesAreTheSameCode() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            clock.advance(steps: 1)  // the step before is the confirming code's: used
            let spellings: [(Int) -> String] = [
                { offset in Self.fullWidth(enrolled.code(at: clock, offset: offset)) },
                { offset in let code = enrolled.code(at: clock, offset: offset); return "\(code.prefix(3)) \(code.suffix(3))" },
                { offset in let code = enrolled.code(at: clock, offset: offset); return " \(code.prefix(3))-\(code.suffix(3))\t" },
            ]
            for (index, spelling) in spellings.enumerated() {
                let token = try await app.mfaToken(enrolled.user.username)
                let code = spelling(index - 1)
                let response = try await app.completeLogin(["mfaToken": token, "code": code])
                XCTAssertEqual(response.status.code, 200, "\(code.debugDescription): \(response.bodyString)")
            }
        }
    }

    func testRecoveryCodesInAnyCaseSpacingOrWidth() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let codes = enrolled.recoveryCodes
            let spellings = [
                codes[0].lowercased(),
                codes[1].replacingOccurrences(of: "-", with: ""),
                codes[2].replacingOccurrences(of: "-", with: " "),
                Self.fullWidth(codes[3]),
                Self.fullWidth(codes[4].lowercased()).replacingOccurrences(of: "-", with: "\u{2010}"),  // a Unicode hyphen
            ]
            for (index, spelling) in spellings.enumerated() {
                let token = try await app.mfaToken(enrolled.user.username)
                let response = try await app.completeLogin(["mfaToken": token, "recoveryCode": spelling])
                XCTAssertEqual(response.status.code, 200, "\(spelling): \(response.bodyString)")
                XCTAssertEqual(try response.decode(Token.self).recoveryCodesRemaining, 9 - index)
                let again = try await app.mfaToken(enrolled.user.username)
                let reused = try await app.completeLogin(["mfaToken": again, "recoveryCode": codes[index]])
                XCTAssertEqual(reused.status.code, 401, "the canonical spelling is the same, spent code")
            }
        }
    }

    /// The login accepts the username in another case or normalisation form; the second step
    /// is the same account's.
    func testUsernamesSpelledDifferentlyReachTheSameSecondStep() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(username: "Zoë", clock: clock)
            clock.advance(steps: 1)
            let spellings = ["zoë", "ZOË", "Zoe\u{0308}"]
            for (index, spelling) in spellings.enumerated() {
                let token = try await app.mfaToken(spelling)
                let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock, offset: index - 1)])
                XCTAssertEqual(response.status.code, 200, "\(spelling): \(response.bodyString)")
                let answer = try response.decode(Token.self)
                let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(answer.value)).decode(PublicUser.self)
                XCTAssertEqual(me.id, enrolled.user.id)
            }
        }
    }
}
