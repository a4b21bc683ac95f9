import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// A passkey as a reset's second factor, for an account with TOTP on and a passkey: offered in
/// `methods`, its options asked for with the reset's token and mfaToken (a login's mfaToken gets
/// none), and the reset completed with the assertion, once. A refused passkey counts toward the
/// reset's five failures.
final class PasswordResetPasskeyTests: XCTestCase {
    func testAPasskeyCompletesTheResetOnce() async throws {
        try await withMFAApp { app, clock in
            var (enrolled, token, authenticator) = try await Self.resetOfUserWithPasskey(app, clock)
            let first = try await app.confirmReset(["token": token, "newPassword": "passkey-chosen-secret"])
            let required = try first.decode(MFARequired.self)
            XCTAssertEqual(required.methods, ["totp", "recovery_code", "passkey"])

            let proof = try await Self.assertion(&authenticator, token: token, mfaToken: required.mfaToken, on: app)
            let done = try await Self.confirm(token, required.mfaToken, proof, on: app)
            XCTAssertEqual(done.status.code, 204, done.bodyString)
            let again = try await Self.confirm(token, required.mfaToken, proof, on: app)
            XCTAssertEqual(again.status.code, 400, "the reset is spent: \(again.bodyString)")
            _ = try await app.mfaToken(enrolled.user.username, password: "passkey-chosen-secret")
        }
    }

    func testOptionsNeedTheResetsOwnMFATokenAndARefusedPasskeyCounts() async throws {
        try await withMFAApp { app, clock in
            var (enrolled, token, authenticator) = try await Self.resetOfUserWithPasskey(app, clock)
            let loginMFAToken = try await app.mfaToken(enrolled.user.username)
            let withLogins = try await app.client.send(
                .post, "/api/users/password-reset/passkey/options", json: ["token": token, "mfaToken": loginMFAToken])
            assertRefused(withLogins, 401, mentioning: "no longer valid", "a login's mfaToken")
            let missing = try await app.client.send(.post, "/api/users/password-reset/passkey/options", json: ["token": token])
            XCTAssertEqual(missing.status.code, 400, missing.bodyString)

            let mfaToken = try await PasswordResetSecondFactorTests.secondStep(app, token, password: "passkey-chosen-secret")
            let tampered = try await Self.assertion(&authenticator, token: token, mfaToken: mfaToken, on: app, tampering: Tampering { $0.badSignature = true })
            let refused = try await Self.confirm(token, mfaToken, tampered, on: app)
            assertRefused(refused, 401, mentioning: "The passkey was not accepted", "a bad signature")
            let failures = try await app.number("SELECT failures AS n FROM password_resets WHERE digest = \(SHA256.hex(of: token))")
            XCTAssertEqual(failures, 1, "counted toward the reset's five")
            let both = try await app.client.send(.post, "/api/users/password-reset/confirm", json: [
                "token": .string(token), "mfaToken": .string(mfaToken), "code": .string("123456"), "passkey": tampered,
            ] as [String: JSONValue])
            assertRefused(both, 400, mentioning: "not several", "a code and a passkey")

            let proof = try await Self.assertion(&authenticator, token: token, mfaToken: mfaToken, on: app)
            let done = try await Self.confirm(token, mfaToken, proof, on: app)
            XCTAssertEqual(done.status.code, 204, "a refusal leaves the step open: \(done.bodyString)")
        }
    }

    /// An account with TOTP on, a verified address and a passkey, and a reset mailed to it.
    static func resetOfUserWithPasskey(_ app: TestApp, _ clock: TestClock) async throws -> (EnrolledUser, String, SoftwareAuthenticator) {
        let (enrolled, token) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
        var authenticator = try PasskeyCeremony.authenticator()
        try await PasskeyCeremony(client: app.client).registered(&authenticator, token: enrolled.session.value)
        return (enrolled, token, authenticator)
    }

    /// The reset's passkey options, and an assertion over them.
    static func assertion(
        _ authenticator: inout SoftwareAuthenticator, token: String, mfaToken: String, on app: TestApp, tampering: Tampering = Tampering()
    ) async throws -> JSONValue {
        let options = try await app.client.send(
            .post, "/api/users/password-reset/passkey/options", json: ["token": token, "mfaToken": mfaToken])
        XCTAssertEqual(options.status.code, 200, options.bodyString)
        let request = try options.decode(PasskeyOptionsTests.Request.self)
        XCTAssertEqual(request.allowCredentials.map(\.id), [Base64URL.encode(authenticator.credentialID)], "the account's passkeys")
        let challenge = try XCTUnwrap(Base64URL.decode(request.challenge))
        return try JSONValue.parse(Array(try authenticator.assert(challenge: challenge, tampering: tampering)))
    }

    static func confirm(_ token: String, _ mfaToken: String, _ passkey: JSONValue, on app: TestApp) async throws -> TestResponse {
        try await app.client.send(.post, "/api/users/password-reset/confirm", json: [
            "token": .string(token), "mfaToken": .string(mfaToken), "passkey": passkey,
        ] as [String: JSONValue])
    }
}
