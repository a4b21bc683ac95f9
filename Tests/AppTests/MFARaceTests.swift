import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Requests racing on one secret: one code with one mfaToken, one recovery code with two
/// tokens. Exactly one wins each time; the others get a clear refusal.
final class MFARaceTests: XCTestCase {
    func testEightConcurrentSecondStepsWithOneCodeAndTokenIssueOnePair() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let token = try await app.mfaToken(enrolled.user.username)
            let code = enrolled.code(at: clock)
            let sessionsBefore = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            let client = app.client
            let codes = try await statusCodes(of: (0..<8).map { _ in
                { try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": token, "code": code]) }
            })
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 401 }.count, 7, "\(codes.sorted())")
            let sessionsAfter = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(sessionsAfter, sessionsBefore + 1, "exactly one pair")
        }
    }

    /// Eight tokens, one code: the step is claimed once.
    func testOneCodeWithEightTokensAtOnceIsAcceptedOnce() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "20"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            var tokens: [String] = []
            for _ in 0..<8 { tokens.append(try await app.mfaToken(enrolled.user.username)) }
            let code = enrolled.code(at: clock)
            let client = app.client
            let codes = try await statusCodes(of: tokens.map { token in
                { try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": token, "code": code]) }
            })
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
        }
    }

    func testOneRecoveryCodeSpentTwiceAtOnceWorksOnce() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let tokens = [try await app.mfaToken(enrolled.user.username), try await app.mfaToken(enrolled.user.username)]
            let recovery = enrolled.recoveryCodes[5]
            let client = app.client
            let codes = try await statusCodes(of: tokens.map { token in
                { try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": token, "recoveryCode": recovery]) }
            })
            XCTAssertEqual(codes.sorted(), [200, 401])
            let observed1 = try await app.number("SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(observed1, 9)
        }
    }

    /// Two disables with the same code at once: one proof, one 204.
    func testOneCodeProvesOneOfTwoConcurrentChanges() async throws {
        try await withMFAApp { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            let code = enrolled.code(at: clock)
            let client = app.client
            let bearer = TestAuth.bearer(enrolled.session.value)
            let codes = try await statusCodes(of: (0..<2).map { _ in
                {
                    try await client.send(
                        .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password", "code": code], auth: bearer)
                }
            })
            XCTAssertEqual(codes.sorted(), [200, 403])
        }
    }
}
