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

/// Each way a passkey response can be wrong gets its own clear 4xx, at registration and at
/// login; unknown credentials and bad signatures count in the login throttle.
final class PasskeyRefusalTests: XCTestCase {
    private func holder(_ app: TestApp) async throws -> (token: String, authenticator: SoftwareAuthenticator) {
        try await PasskeyCeremony.holder("holder", on: app)
    }

    /// Prepends a member to clientDataJSON: still valid JSON with the same challenge, but not
    /// the bytes the authenticator signed.
    static let extraMember = Tampering { $0.alterClientDataJSON = { Array(#"{"tampered":1,"#.utf8) + $0.dropFirst() } }

    func testLoginRefusals() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            var (_, authenticator) = try await holder(app)
            let ceremony = PasskeyCeremony(client: app.client)
            let cases: [(String, Tampering, String)] = [
                ("tampered clientDataJSON", Self.extraMember, "the signature does not verify"),
                ("wrong origin", Tampering { $0.origin = "https://evil.example" }, "the origin is not allowed"),
                ("wrong type", Tampering { $0.type = "webauthn.create" }, "wrong type"),
                ("wrong rpId", Tampering { $0.rpID = "evil.example" }, "rpIdHash"),
                ("UV false", Tampering { $0.userVerified = false }, "not verified"),
                ("UP false", Tampering { $0.userPresent = false }, "not present"),
                ("bad signature", Tampering { $0.badSignature = true }, "the signature does not verify"),
                ("unknown credential", Tampering { $0.rawID = SecureRandom.bytes(count: 32) }, "no passkey with this credential id"),
                ("another user handle", Tampering { $0.userHandle = UUID().handleBytes }, "user handle"),
            ]
            for (label, tampering, fragment) in cases {
                let response = try await ceremony.logIn(&authenticator, tampering: tampering)
                assertRefused(response, 401, mentioning: fragment, label)
            }
            XCTAssertEqual(capture.lines.filter { $0.metadata["event"] == "login.failed" }.count, cases.count, "each audited")

            // A challenge answered once is spent, right or wrong.
            let good = try await ceremony.assertion(&authenticator)
            let first = try await ceremony.sendLogin(good)
            XCTAssertEqual(first.status.code, 200, first.bodyString)
            assertRefused(try await ceremony.sendLogin(good), 401, mentioning: "already used", "replayed challenge")
            let spentByFailure = try await ceremony.assertion(&authenticator, tampering: Tampering { $0.origin = "https://evil.example" })
            _ = try await ceremony.sendLogin(spentByFailure)
            assertRefused(try await ceremony.sendLogin(spentByFailure), 401, mentioning: "already used", "challenge spent by a refusal")
            let foreign = try authenticator.assert(challenge: SecureRandom.bytes(count: 32))
            assertRefused(try await ceremony.sendLogin(foreign), 401, mentioning: "challenge is unknown", "a challenge never issued")

            // A registration challenge answers no login.
            let creation = try await ceremony.creationOptions(try await app.client.session("holder", scope: "account").value)
            assertRefused(try await ceremony.sendLogin(try authenticator.assert(challenge: creation.challenge)), 401, mentioning: "challenge")

            // The counter going backwards: refused, and audited as a possible clone.
            let backwards = try await ceremony.logIn(&authenticator, tampering: Tampering { $0.signCount = 1 })
            assertRefused(backwards, 401, mentioning: "sign count did not increase", "sign count backwards")
            XCTAssertEqual(capture.lines.filter { $0.metadata["event"] == "passkey.clone-suspected" }.count, 1)
            let still = try await ceremony.logIn(&authenticator)
            XCTAssertEqual(still.status.code, 200, "the real authenticator goes on: \(still.bodyString)")
        }
    }

    /// A login that names a user accepts only that user's passkeys.
    func testANamedLoginTakesOnlyThatUsersPasskey() async throws {
        try await withTestApp { app in
            var (_, authenticator) = try await holder(app)
            _ = try await User.create(username: "other", on: app)
            let ceremony = PasskeyCeremony(client: app.client)
            assertRefused(try await ceremony.logIn(&authenticator, username: "other"), 401, mentioning: "not the named user's")
            let own = try await ceremony.logIn(&authenticator, username: "holder")
            XCTAssertEqual(own.status.code, 200, own.bodyString)
        }
    }

    func testRegistrationRefusals() async throws {
        try await withTestApp { app in
            var (token, registered) = try await holder(app)
            let ceremony = PasskeyCeremony(client: app.client)
            let cases: [(String, Tampering, String)] = [
                ("wrong origin", Tampering { $0.origin = "https://evil.example" }, "the origin is not allowed"),
                ("wrong rpId", Tampering { $0.rpID = "evil.example" }, "rpIdHash"),
                ("UV false", Tampering { $0.userVerified = false }, "not verified"),
                ("login type", Tampering { $0.type = "webauthn.get" }, "wrong type"),
                ("unsupported algorithm", Tampering { $0.coseAlgorithm = -36 }, "not allowed"),
                ("BS without BE", Tampering { $0.backedUp = true }, "without backup eligibility"),
                ("rawId not the attested id", Tampering { $0.rawID = SecureRandom.bytes(count: 32) }, "rawId"),
            ]
            for (label, tampering, fragment) in cases {
                var authenticator = try PasskeyCeremony.authenticator()
                assertRefused(try await ceremony.register(&authenticator, token: token, tampering: tampering), 400, mentioning: fragment, label)
            }
            // Under `none` attestation nothing signs clientDataJSON at registration; under
            // `packed` the statement does, so a changed byte is refused.
            var attested = try PasskeyCeremony.authenticator()
            let tampered = try await ceremony.register(&attested, token: token, attestation: .packedSelf, tampering: Self.extraMember)
            assertRefused(tampered, 400, mentioning: "attestation statement does not verify", "tampered clientDataJSON")
            let selfAttested = try await ceremony.register(&attested, token: token, attestation: .packedSelf)
            XCTAssertEqual(selfAttested.status.code, 201, "packed self attestation: \(selfAttested.bodyString)")
            var certified = try PasskeyCeremony.authenticator(.rs256)
            let x5c = try await ceremony.register(&certified, token: token, attestation: .packedCertificate)
            XCTAssertEqual(x5c.status.code, 201, "packed with an untrusted x5c is recorded, trusted for nothing: \(x5c.bodyString)")
            let formats = try await app.til.db.query("SELECT attestation_format FROM passkeys ORDER BY seq")
            XCTAssertEqual(try formats.map { try $0.decode(column: "attestation_format", as: String.self) }, ["none", "packed", "packed"])

            // Replayed, and another user's challenge.
            var fresh = try PasskeyCeremony.authenticator(.edDSA)
            let options = try await ceremony.creationOptions(token)
            let credential = try fresh.register(challenge: options.challenge, userID: options.userID)
            let registeredOnce = try await ceremony.sendRegistration(credential, name: "A", token: token)
            XCTAssertEqual(registeredOnce.status.code, 201, registeredOnce.bodyString)
            assertRefused(try await ceremony.sendRegistration(credential, name: "A", token: token), 400, mentioning: "already used", "replay")
            _ = try await User.create(username: "someone", on: app)
            let theirs = try await ceremony.creationOptions(try await app.client.session("someone", scope: "account").value)
            var other = try PasskeyCeremony.authenticator()
            let stolen = try other.register(challenge: theirs.challenge, userID: theirs.userID)
            assertRefused(try await ceremony.sendRegistration(stolen, name: "B", token: token), 400, mentioning: "challenge", "another user's challenge")

            // The same credential twice: 409 naming the field.
            let again = try await ceremony.register(&registered, token: token)
            assertRefused(again, 409, mentioning: "'credential' is already taken", "duplicate credential id")
            let count = try await app.til.db.query("SELECT count(*) AS n FROM passkeys").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(count, 4, "nothing refused was stored")
        }
    }

    func testBadInputGetsClearJSONErrors() async throws {
        try await withTestApp { app in
            let (token, _) = try await holder(app)
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let logins: [(String, String)] = [
                ("{", "JSON"), ("[]", ""), (#"{"id":"x"}"#, "type"), (#"{"id":"AA","rawId":"AA","type":"public-key","response":{}}"#, "clientDataJSON"),
                (#"{"id":"AA","rawId":"!!","type":"public-key","response":{"clientDataJSON":"e30"}}"#, "rawId"),
                (#"{"id":"AA","rawId":"AA","type":"password","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#, "type"),
                (#"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"bm90IGpzb24","authenticatorData":"AA","signature":"AA"}}"#, "clientDataJSON"),
            ]
            for (body, fragment) in logins {
                let response = try await app.client.send(.post, "/api/users/login/passkey", headers: json, body: Array(body.utf8))
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
                let reason = (try? response.decode(ErrorAnswer.self))?.reason ?? "not TIL's JSON error"
                XCTAssertTrue(fragment.isEmpty || reason.contains(fragment), "\(body): \(reason)")
            }
            let form = try await app.client.send(.post, "/api/users/login/passkey", headers: ["Content-Type": "text/plain"], body: Array("x".utf8))
            XCTAssertEqual(form.status.code, 415, form.bodyString)
            let empty = try await app.client.send(.post, "/api/users/login/passkey")
            XCTAssertEqual(empty.status.code, 415, empty.bodyString)

            let registrations: [(String, String)] = [
                (#"{"name":"x"}"#, "credential"), (#"{"credential":{}}"#, "name"), (#"{"name":"x","credential":"AA"}"#, "credential"),
                (#"{"name":"","credential":{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"e30","attestationObject":"AA"}}}"#, ""),
            ]
            for (body, fragment) in registrations {
                let response = try await app.client.send(.post, "/api/users/me/passkeys", headers: json, body: Array(body.utf8), auth: .bearer(token))
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
                let reason = (try? response.decode(ErrorAnswer.self))?.reason ?? "not TIL's JSON error"
                XCTAssertTrue(fragment.isEmpty || reason.contains(fragment), "\(body): \(reason)")
            }
            let count = try await app.til.db.query("SELECT count(*) AS n FROM passkeys").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(count, 1)
        }
    }

    /// Unknown credentials count per address, bad signatures per account too: past
    /// `LOGIN_MAX_FAILURES` the answer is 429 with `Retry-After`, before any verification.
    func testUnknownCredentialsAndBadSignaturesAreThrottled() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3"]) { app in
            var (_, authenticator) = try await holder(app)
            let ceremony = PasskeyCeremony(client: app.client)
            for attempt in 1...3 {
                let response = try await ceremony.logIn(&authenticator, tampering: Tampering { $0.rawID = SecureRandom.bytes(count: 32) })
                assertRefused(response, 401, mentioning: "no passkey", "unknown credential \(attempt)")
            }
            let throttled = try await ceremony.logIn(&authenticator, tampering: Tampering { $0.rawID = SecureRandom.bytes(count: 32) })
            assertRefused(throttled, 429, mentioning: "Too many failed attempts", "the fourth unknown credential")
            XCTAssertNotNil(throttled.headers["Retry-After"])

            for attempt in 1...3 {
                let response = try await ceremony.logIn(&authenticator, tampering: Tampering { $0.badSignature = true })
                assertRefused(response, 401, mentioning: "signature", "bad signature \(attempt)")
            }
            let locked = try await ceremony.logIn(&authenticator)
            assertRefused(locked, 429, mentioning: "Too many failed attempts", "the account's limit, even for the right signature")
            let failures = try await app.til.db.query("SELECT username, count(*) AS n FROM login_failures GROUP BY username ORDER BY username")
            let keys = try failures.map { try $0.decode(column: "username", as: String.self) }
            XCTAssertEqual(keys.count, 2, "\(keys)")
            XCTAssertEqual(keys.first, "holder", "the account's failures")
            XCTAssertEqual(keys.last?.hasPrefix("passkey:"), true, "the address's, under a key no username can spell: \(keys)")
        }
    }
}
