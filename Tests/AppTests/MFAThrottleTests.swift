import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Wrong codes count in the login throttle (PostgreSQL's `login_failures`) per account and
/// address, as failed passwords do: past the limit 429 with `Retry-After`, the code unchecked.
final class MFAThrottleTests: XCTestCase {
    func testWrongCodesAreThrottledWithRetryAfter() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            var tokens: [String] = []
            for _ in 0..<2 { tokens.append(try await app.mfaToken(enrolled.user.username)) }
            for attempt in 1...3 {
                let wrong = try await app.completeLogin(["mfaToken": tokens[attempt % 2], "code": enrolled.code(at: clock, offset: 5)])
                XCTAssertEqual(wrong.status.code, 401, "attempt \(attempt)")
            }
            let counted = try await app.number("SELECT count(*)::int AS n FROM login_failures WHERE username = lower(\(enrolled.user.username))")
            XCTAssertEqual(counted, 3, "counted as failed logins of the account")
            let throttled = try await app.completeLogin(["mfaToken": tokens[0], "code": enrolled.code(at: clock)])
            assertThrottled(throttled, window: 60)
            let password = try await app.client.login(enrolled.user.username)
            assertThrottled(password, window: 60)
            let proof = try await app.client.send(
                .post, "/api/users/me/mfa/recovery-codes", json: ["currentPassword": "password", "code": enrolled.code(at: clock)],
                auth: .bearer(enrolled.session.value))
            assertThrottled(proof, window: 60)

            try await app.til.administration.unlock(enrolled.user.username)
            let after = try await app.completeLogin(["mfaToken": tokens[0], "code": enrolled.code(at: clock)])
            XCTAssertEqual(after.status.code, 200, "the right code once unlocked: \(after.bodyString)")
        }
    }

    /// A right code leaves no failure behind.
    func testARightCodeIsNotCounted() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            for _ in 0..<5 {
                let token = try await app.mfaToken(enrolled.user.username)
                let response = try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)])
                XCTAssertEqual(response.status.code, 200, response.bodyString)
                clock.advance(steps: 1)
            }
            let observed1 = try await app.number("SELECT count(*)::int AS n FROM login_failures")
            XCTAssertEqual(observed1, 0)
        }
    }

    /// A right password forgives its address's failed logins, but not wrong codes: each
    /// guess with the right password still counts against the account, and past the limit even
    /// the right code waits (here through the account endpoints, then the login's second step).
    func testTheRightPasswordDoesNotBuyMoreGuessesAtTheCode() async throws {
        try await withMFAApp(settings: ["LOGIN_MAX_FAILURES": "2", "LOGIN_WINDOW": "60"]) { app, clock in
            let enrolled = try await app.enrolledUser(clock: clock)
            func disable(_ code: String) async throws -> TestResponse {
                try await app.client.send(
                    .delete, "/api/users/me/mfa/totp", json: ["currentPassword": "password", "code": code],
                    auth: .bearer(enrolled.session.value))
            }
            for attempt in 1...3 {
                let wrong = try await disable(enrolled.code(at: clock, offset: 3 + attempt))
                XCTAssertEqual(wrong.status.code, 403, "guess \(attempt): \(wrong.bodyString)")
            }
            assertThrottled(try await disable(enrolled.code(at: clock)), window: 60)
            let token = try await app.mfaToken(enrolled.user.username)
            assertThrottled(try await app.completeLogin(["mfaToken": token, "code": enrolled.code(at: clock)]), window: 60)
            let wrongCodes = try await app.number(
                "SELECT count(*)::int AS n FROM login_failures WHERE username = \(SecondFactors.failureKey(enrolled.user.id))")
            XCTAssertEqual(wrongCodes, 3)
        }
    }
}
