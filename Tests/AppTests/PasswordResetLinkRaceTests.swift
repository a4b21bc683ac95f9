import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Requests racing on one secret or one counter: one token confirmed by many at once resets
/// once; a second step raced with one code completes once; the address's and the account's
/// limits admit exactly their number however many arrive together (`password_reset_begin`
/// takes its advisory locks before it counts); requests for one account racing from several
/// addresses leave exactly one live link.
final class PasswordResetLinkRaceTests: XCTestCase {
    func testManyConfirmsOfOneTokenResetOnce() async throws {
        try await withTestApp(.live) { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let client = app.client
            let requests: [@Sendable () async throws -> TestResponse] = (0..<6).map { index in
                { try await client.send(.post, "/api/users/password-reset/confirm", json: ["token": token, "newPassword": "racer-\(index)-secret"]) }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes.filter { $0 == 204 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 400 }.count, 5, "\(codes.sorted())")
            let notices = try await app.mails(.passwordChanged, to: email)
            XCTAssertEqual(notices, 1, "one reset, one notice")
        }
    }

    func testOneCodeRacedAtTheSecondStepCompletesOnce() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, token) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
            let mfaToken = try await PasswordResetSecondFactorTests.secondStep(app, token, password: "wanted-new-secret")
            let (client, code) = (app.client, enrolled.code(at: clock))
            let requests: [@Sendable () async throws -> TestResponse] = (0..<4).map { _ in
                { try await client.send(.post, "/api/users/password-reset/confirm", json: ["token": token, "mfaToken": mfaToken, "code": code]) }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes.filter { $0 == 204 }.count, 1, "\(codes.sorted())")
            // The others find the reset gone (400), or its mfaToken, spent with it, when they looked a moment earlier (401).
            XCTAssertEqual(codes.filter { [400, 401].contains($0) }.count, 3, "\(codes.sorted())")
        }
    }

    func testTheAddressLimitAdmitsExactlyItsNumber() async throws {
        try await withTestApp(.live) { app in
            let limit = app.til.configuration.passwordReset.addressLimit
            let client = app.client
            let requests: [@Sendable () async throws -> TestResponse] = (0..<(limit + 10)).map { index in
                { try await client.send(.post, "/api/users/password-reset", json: ["login": "racer-\(index)"]) }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes.filter { $0 == 202 }.count, limit, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 10, "\(codes.sorted())")
        }
    }

    func testOneAccountFromManyAddressesGetsItsLimitAndOneLiveLink() async throws {
        try await withTestApp(.live, settings: ["TRUSTED_PROXIES": "127.0.0.1"]) { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let client = app.client
            let requests: [@Sendable () async throws -> TestResponse] = (0..<8).map { index in
                {
                    try await client.send(
                        .post, "/api/users/password-reset", headers: ["X-Forwarded-For": "198.51.100.\(index + 1)"],
                        json: ["login": user.username])
                }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes, Array(repeating: 202, count: 8))
            let mails = try await app.mails(.passwordReset, to: email)
            XCTAssertEqual(mails, app.til.configuration.passwordReset.accountLimit, "exactly the account's limit")
            let live = try await app.number("SELECT count(*)::int AS n FROM password_resets WHERE user_id = \(user.id)")
            XCTAssertEqual(live, 1, "each newer request replaced the older link")
            let token = try await app.newestResetToken(mailedTo: email)
            let confirmed = try await app.confirmReset(["token": token, "newPassword": "the-newest-link"])
            XCTAssertEqual(confirmed.status.code, 204, "the newest mail holds the live link: \(confirmed.bodyString)")
        }
    }

    func testARequestRacingAConfirmLeavesEitherOrderConsistent() async throws {
        try await withTestApp(.live) { app in
            let (user, email) = try await app.userWithVerifiedEmail()
            let token = try await app.resetToken(for: user.username, mailedTo: email)
            let client = app.client
            async let confirmed = client.send(.post, "/api/users/password-reset/confirm", json: ["token": token, "newPassword": "raced-secret"])
            async let requested = client.send(.post, "/api/users/password-reset", json: ["login": user.username])
            let (confirm, request) = try await (confirmed, requested)
            XCTAssertEqual(request.status.code, 202)
            XCTAssertTrue([204, 400].contains(confirm.status.code), confirm.bodyString)
            let live = try await app.number("SELECT count(*)::int AS n FROM password_resets WHERE user_id = \(user.id)")
            // Confirmed first: the request then stored a new link. Requested first: the old link was replaced (400), the new one lives.
            XCTAssertEqual(live, 1, "exactly the newest link is live")
        }
    }
}
