import AppTesting
import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// A passkey as the second factor of a password login: offered in `methods`, asked for with
/// the mfaToken, and completing the login with `amr` ["pwd","hwk","mfa"]; counted in the
/// status; removed by `users mfa-reset`.
final class PasskeySecondFactorTests: XCTestCase {
    /// An account with TOTP on and an ES256 passkey.
    private func enrolledWithPasskey(_ app: TestApp, clock: TestClock, username: String = "two-factors")
        async throws -> (EnrolledUser, SoftwareAuthenticator) {
        let enrolled = try await app.enrolledUser(username: username, clock: clock)
        var authenticator = try PasskeyCeremony.authenticator()
        try await PasskeyCeremony(client: app.client).registered(&authenticator, token: enrolled.session.value)
        return (enrolled, authenticator)
    }

    /// The mfaToken's options, and an assertion over them.
    private func passkeyProof(
        _ authenticator: inout SoftwareAuthenticator, mfaToken: String, on app: TestApp, tampering: Tampering = Tampering()
    ) async throws -> JSONValue {
        let options = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": mfaToken])
        XCTAssertEqual(options.status.code, 200, options.bodyString)
        let challenge = try XCTUnwrap(Base64URL.decode(try options.decode(PasskeyOptionsTests.Request.self).challenge))
        return try JSONValue.parse(Array(try authenticator.assert(challenge: challenge, tampering: tampering)))
    }

    private func complete(_ mfaToken: String, _ passkey: JSONValue, on app: TestApp) async throws -> TestResponse {
        try await Self.complete(mfaToken, passkey, client: app.client)
    }

    private static func complete(_ mfaToken: String, _ passkey: JSONValue, client: TestClient) async throws -> TestResponse {
        try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": JSONValue.string(mfaToken), "passkey": passkey])
    }

    func testAPasskeyCompletesAPasswordLogin() async throws {
        try await withMFAApp { app, clock in
            var (enrolled, authenticator) = try await enrolledWithPasskey(app, clock: clock)
            let first = try await app.client.login(enrolled.user.username, scope: "account")
            XCTAssertEqual(first.status.code, 401)
            let required = try first.decode(MFARequired.self)
            XCTAssertEqual(required.methods, ["totp", "recovery_code", "passkey"])

            let options = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": required.mfaToken])
            let allowed = try options.decode(PasskeyOptionsTests.Request.self).allowCredentials
            XCTAssertEqual(allowed.map(\.id), [Base64URL.encode(authenticator.credentialID)], "that user's passkeys")
            let challenge = try XCTUnwrap(Base64URL.decode(try options.decode(PasskeyOptionsTests.Request.self).challenge))
            let proof = try JSONValue.parse(Array(try authenticator.assert(challenge: challenge)))
            let done = try await complete(required.mfaToken, proof, on: app)
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            let token = try done.decode(LoginAnswer.self)
            XCTAssertEqual(token.scopes, ["account"], "the first step's scopes")
            let sessions = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(token.value)).decode([SessionInfo].self)
            XCTAssertEqual(sessions.first { $0.id == token.id }?.amr, ["pwd", "hwk", "mfa"])

            assertRefused(try await complete(required.mfaToken, proof, on: app), 401, mentioning: "no longer valid", "the token is spent")
            let status = try await app.client.send(.get, "/api/users/me/mfa", auth: .bearer(token.value)).decode(MFAStatus.self)
            XCTAssertEqual(status.passkeys, 1)

            // A passkey alone is a whole login too, with its own amr.
            let alone = try await PasskeyCeremony(client: app.client).logIn(&authenticator)
            let aloneToken = try alone.decode(LoginAnswer.self)
            let listed = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(aloneToken.value)).decode([SessionInfo].self)
            XCTAssertEqual(listed.first { $0.id == aloneToken.id }?.amr, ["hwk", "user"])
        }
    }

    /// The mfaToken's challenge takes only that user's passkeys, a login's challenge is not the
    /// mfaToken's, a refused passkey counts toward the token's five failures, and an mfaToken
    /// that is gone gets no options.
    func testRefusals() async throws {
        try await withMFAApp { app, clock in
            var (enrolled, authenticator) = try await enrolledWithPasskey(app, clock: clock)
            var (_, strangers) = try await enrolledWithPasskey(app, clock: clock, username: "stranger")
            let mfaToken = try await app.mfaToken(enrolled.user.username)
            let theirs = try await passkeyProof(&strangers, mfaToken: mfaToken, on: app)
            assertRefused(try await complete(mfaToken, theirs, on: app), 401, mentioning: "not the named user's", "another user's passkey")
            let plainLogin = try JSONValue.parse(Array(try await PasskeyCeremony(client: app.client).assertion(&authenticator)))
            assertRefused(try await complete(mfaToken, plainLogin, on: app), 401, mentioning: "challenge", "a login's challenge")
            let unverified = try await passkeyProof(&authenticator, mfaToken: mfaToken, on: app, tampering: Tampering { $0.userVerified = false })
            assertRefused(try await complete(mfaToken, unverified, on: app), 401, mentioning: "not verified")
            for _ in 0..<2 {
                let bad = try await passkeyProof(&authenticator, mfaToken: mfaToken, on: app, tampering: Tampering { $0.badSignature = true })
                _ = try await complete(mfaToken, bad, on: app)
            }
            let ended = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": mfaToken])
            assertRefused(ended, 401, mentioning: "no longer valid", "five refusals end the token")
            assertRefused(try await complete(mfaToken, plainLogin, on: app), 401, mentioning: "no longer valid")

            let gone = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": "not-a-token"])
            assertRefused(gone, 401, mentioning: "no longer valid")
            let both = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": "x", "username": "y"])
            assertRefused(both, 400, mentioning: "not both")
            let fresh = try await app.mfaToken(enrolled.user.username)
            let proof = try await passkeyProof(&authenticator, mfaToken: fresh, on: app)
            let twoProofs = try await app.client.send(
                .post, "/api/users/login/mfa", json: ["mfaToken": JSONValue.string(fresh), "passkey": proof, "code": .string("123456")])
            assertRefused(twoProofs, 400, mentioning: "not several")
        }
    }

    /// Two answers with one mfaToken, at once: one login.
    func testRacingPasskeyAnswersToOneMFATokenFinishOneLogin() async throws {
        try await withMFAApp { app, clock in
            var (enrolled, authenticator) = try await enrolledWithPasskey(app, clock: clock)
            for trial in 1...3 {
                let mfaToken = try await app.mfaToken(enrolled.user.username)
                let first = try await passkeyProof(&authenticator, mfaToken: mfaToken, on: app)
                let second = try await passkeyProof(&authenticator, mfaToken: mfaToken, on: app)
                let client = app.client
                async let a = Self.complete(mfaToken, first, client: client)
                async let b = Self.complete(mfaToken, second, client: client)
                let codes = try await [a, b].map(\.status.code).sorted()
                XCTAssertEqual(codes, [200, 401], "trial \(trial)")
            }
        }
    }

    func testMFAResetRemovesPasskeys() async throws {
        try await withMFAApp { app, clock in
            let (enrolled, _) = try await enrolledWithPasskey(app, clock: clock, username: "Zoë-reset")
            let environment = try TILServerRun.testEnvironment()
            let reset = try await TILServerRun.run(["users", "mfa-reset", "ZOË-RESET"], environment: environment)
            XCTAssertEqual(reset.status, 0, reset.stderr)
            XCTAssertEqual(reset.stdout, "ZOË-RESET: second factors removed; 1 session ended.\n")
            let left = try await app.number("SELECT count(*)::int AS n FROM passkeys WHERE user_id = \(enrolled.user.id)")
            XCTAssertEqual(left, 0)
        }
    }
}
