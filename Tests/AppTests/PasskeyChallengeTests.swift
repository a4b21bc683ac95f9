import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// The challenge store: one consumption per challenge however many race for it, none after
/// five minutes, none for another ceremony; and the options' answers as the document says.
final class PasskeyChallengeTests: XCTestCase {
    private func issuedChallenge(_ app: TestApp, body: [String: String] = [:]) async throws -> [UInt8] {
        let response = try await app.client.send(.post, "/api/users/login/passkey/options", json: body)
        let options = try response.decode(PasskeyOptionsTests.Request.self)
        return try XCTUnwrap(Base64URL.decode(options.challenge))
    }

    func testRacingConsumersOfOneChallengeGetItOnce() async throws {
        try await withTestApp { app in
            let store = WebAuthnChallenges(db: app.til.db)
            for trial in 1...5 {
                let challenge = try await issuedChallenge(app)
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<8 { group.addTask { try await store.consume(challenge, for: .authentication) != nil } }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                XCTAssertEqual(winners, 1, "trial \(trial)")
            }
            let left = try await PasskeyRows.challengeCount(on: app)
            XCTAssertEqual(left, 0, "every consumed challenge is gone")
        }
    }

    func testExpiredForeignAndUnknownChallengesAreRefusedAndSpent() async throws {
        try await withTestApp { app in
            let store = WebAuthnChallenges(db: app.til.db)
            let expired = try await issuedChallenge(app)
            try await app.til.db.execute("UPDATE webauthn_challenges SET expires_at = now() - interval '1 second'")
            let late = try await store.consume(expired, for: .authentication)
            XCTAssertNil(late, "five minutes are over")

            let user = try await User.create(username: "ceremony", on: app)
            let named = try await issuedChallenge(app, body: ["username": "CEREMONY"])
            let wrongCeremony = try await store.consume(named, for: .registration)
            XCTAssertNil(wrongCeremony, "a login's challenge registers nothing")
            let afterwards = try await store.consume(named, for: .authentication)
            XCTAssertNil(afterwards, "and it was spent by that attempt")

            let fresh = try await issuedChallenge(app, body: ["username": "ceremony"])
            let issued = try await store.consume(fresh, for: .authentication)
            XCTAssertEqual(issued?.userID, user.id, "a named login's challenge is tied to the user")
            let random = try await store.consume(SecureRandom.bytes(count: 32), for: .authentication)
            XCTAssertNil(random)
            let short = try await store.consume([1, 2, 3], for: .authentication)
            XCTAssertNil(short)
            let left = try await PasskeyRows.challengeCount(on: app)
            XCTAssertEqual(left, 0)
        }
    }

    func testThePurgeRemovesExpiredChallenges() async throws {
        try await withTestApp { app in
            _ = try await issuedChallenge(app)
            _ = try await issuedChallenge(app)
            try await app.til.db.execute("""
                UPDATE webauthn_challenges SET expires_at = now() - interval '1 second'
                WHERE digest = (SELECT digest FROM webauthn_challenges LIMIT 1)
                """)
            try await TokenPurger(db: app.til.db, loginFailureRetention: .seconds(60), logger: .quiet("purge")).purgeOnce()
            let left = try await PasskeyRows.challengeCount(on: app)
            XCTAssertEqual(left, 1, "the live one stays")
        }
    }

    func testThePasskeyAnswersMatchTheDocument() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let user = try await User.create(username: "documented", on: app)
            let id = try await PasskeyRows.insert(for: user.id, on: app)
            let token = try await app.client.session("documented", scope: "account").value
            let client = app.client
            contract.check(try await client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(token)), .post, "/api/users/me/passkeys/options")
            contract.check(try await client.send(.post, "/api/users/me/passkeys/options"), .post, "/api/users/me/passkeys/options")
            contract.check(try await client.send(.get, "/api/users/me/passkeys", auth: .bearer(token)), .get, "/api/users/me/passkeys")
            let item = "/api/users/me/passkeys/{passkeyID}"
            contract.check(try await client.send(.patch, "/api/users/me/passkeys/\(id)", json: ["name": "Key"], auth: .bearer(token)), .patch, item)
            contract.check(try await client.send(.patch, "/api/users/me/passkeys/\(id)", json: ["name": ""], auth: .bearer(token)), .patch, item)
            contract.check(try await client.send(.patch, "/api/users/me/passkeys/\(UUID())", json: ["name": "K"], auth: .bearer(token)), .patch, item)
            contract.check(try await client.send(.delete, "/api/users/me/passkeys/\(id)", auth: .bearer(token)), .delete, item)
            contract.check(try await client.send(.delete, "/api/users/me/passkeys/\(id)", auth: .bearer(token)), .delete, item)
            let login = "/api/users/login/passkey/options"
            contract.check(try await client.send(.post, login), .post, login)
            contract.check(try await client.send(.post, login, json: ["username": "documented"]), .post, login)
            contract.check(try await client.send(.post, login, json: ["username": "ghost"]), .post, login)
            contract.check(try await client.send(.post, login, json: ["username": 5]), .post, login)

            let ceremony = PasskeyCeremony(client: client)
            var authenticator = try PasskeyCeremony.authenticator(.rs256)
            contract.check(try await ceremony.register(&authenticator, token: token), .post, "/api/users/me/passkeys")
            contract.check(try await ceremony.register(&authenticator, token: token), .post, "/api/users/me/passkeys")
            var other = try PasskeyCeremony.authenticator()
            contract.check(try await ceremony.register(&other, token: token, tampering: Tampering { $0.userVerified = false }), .post, "/api/users/me/passkeys")
            contract.check(try await ceremony.logIn(&authenticator), .post, "/api/users/login/passkey")
            contract.check(try await ceremony.logIn(&authenticator, scope: "account"), .post, "/api/users/login/passkey")
            contract.check(try await ceremony.logIn(&authenticator, tampering: Tampering { $0.badSignature = true }), .post, "/api/users/login/passkey")
            contract.check(try await ceremony.sendLogin(Data("{}".utf8)), .post, "/api/users/login/passkey")
        }
    }

    /// Anyone may ask for login options, each a row for five minutes: one address holds at
    /// most `livePerAddress` live challenges, then gets 429 with `Retry-After` (the page
    /// endpoint shares the rule); an expired one makes room again.
    func testOneAddressHoldsABoundedNumberOfLiveLoginChallenges() async throws {
        try await withTestApp { app in
            for _ in 0..<WebAuthnChallenges.livePerAddress { _ = try await issuedChallenge(app) }
            let refused = try await app.client.send(.post, "/api/users/login/passkey/options", json: ["username": "anyone"])
            XCTAssertEqual(refused.status.code, 429, refused.bodyString)
            XCTAssertEqual(refused.headers["Retry-After"], "300")
            let held = try await PasskeyRows.challengeCount(on: app)
            XCTAssertEqual(held, WebAuthnChallenges.livePerAddress, "the refused request stored nothing")

            try await app.til.db.execute("""
                UPDATE webauthn_challenges SET expires_at = now() - interval '1 second'
                WHERE digest = (SELECT digest FROM webauthn_challenges LIMIT 1)
                """)
            let again = try await app.client.send(.post, "/api/users/login/passkey/options")
            XCTAssertEqual(again.status.code, 200, "an expired challenge makes room: \(again.bodyString)")
        }
    }
}
