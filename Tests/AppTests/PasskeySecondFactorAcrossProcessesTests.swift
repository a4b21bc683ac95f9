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

/// A passkey as the second factor across two `til-server` processes over one database: the
/// mfaToken of one, the options of the other, the answer to the first; the username spelled
/// otherwise in each first step (case and normalisation form); and answers to one mfaToken
/// raced to both processes finish one login.
final class PasskeySecondFactorAcrossProcessesTests: ServerProcessTestCase {
    func testTheMFATokenOfOneProcessIsCompletedWithAPasskeyOnTheOtherOnce() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(username: "Zoë-zwei", clock: TestClock(Date()))
            servers = try await ServerProcess.healthy(2, settings: ["WEBAUTHN_ORIGINS": PasskeyCeremony.origin])
            let (a, b) = (servers[0].client, servers[1].client)
            var authenticator = try PasskeyCeremony.authenticator()
            try await PasskeyCeremony(client: a).registered(&authenticator, token: enrolled.session.value)

            // NFD and upper case at A's first step; the options from B; the answer to A, then again to B.
            let mfaToken = try await Self.mfaToken("ZOE\u{308}-ZWEI", on: a)
            let proof = try await Self.proof(&authenticator, mfaToken: mfaToken, on: b)
            let done = try await Self.complete(mfaToken, proof, on: a)
            XCTAssertEqual(done.status.code, 200, done.bodyString)
            let token = try done.decode(LoginAnswer.self)
            let sessions = try await b.send(.get, "/api/users/me/sessions", auth: .bearer(token.value)).decode([SessionInfo].self)
            XCTAssertEqual(sessions.first { $0.id == token.id }?.amr, ["pwd", "hwk", "mfa"], "the other process sees how it was proven")
            assertRefused(try await Self.complete(mfaToken, proof, on: b), 401, mentioning: "no longer valid", "the replay on the other process")

            // Two answers to one mfaToken (NFC, lower case), one to each process at once: one login.
            for trial in 1...3 {
                let raced = try await Self.mfaToken("zoë-zwei", on: b)
                let first = try await Self.proof(&authenticator, mfaToken: raced, on: a)
                let second = try await Self.proof(&authenticator, mfaToken: raced, on: b)
                async let one = Self.complete(raced, first, on: a)
                async let other = Self.complete(raced, second, on: b)
                let codes = try await [one, other].map(\.status.code).sorted()
                XCTAssertEqual(codes, [200, 401], "trial \(trial)")
            }
            let logins = try await app.number("""
                SELECT count(*)::int AS n FROM sessions WHERE user_id = \(enrolled.user.id) AND 'hwk' = ANY (amr)
                """)
            XCTAssertEqual(logins, 4, "one per mfaToken")
        }
    }

    /// The first step on `client`: asserts the 401 and that a passkey is offered.
    private static func mfaToken(_ username: String, on client: TestClient) async throws -> String {
        let response = try await client.login(username)
        XCTAssertEqual(response.status.code, 401, response.bodyString)
        let required = try response.decode(MFARequired.self)
        XCTAssertEqual(required.methods, ["totp", "recovery_code", "passkey"])
        return required.mfaToken
    }

    /// An assertion over the options `client` gives for `mfaToken`.
    private static func proof(
        _ authenticator: inout SoftwareAuthenticator, mfaToken: String, on client: TestClient
    ) async throws -> JSONValue {
        let options = try await client.send(.post, "/api/users/login/passkey/options", json: ["mfaToken": mfaToken])
        XCTAssertEqual(options.status.code, 200, options.bodyString)
        let challenge = try XCTUnwrap(Base64URL.decode(try options.decode(PasskeyOptionsTests.Request.self).challenge))
        return try JSONValue.parse(Array(try authenticator.assert(challenge: challenge)))
    }

    private static func complete(_ mfaToken: String, _ passkey: JSONValue, on client: TestClient) async throws -> TestResponse {
        try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": JSONValue.string(mfaToken), "passkey": passkey])
    }
}
