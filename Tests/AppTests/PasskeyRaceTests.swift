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

/// Answers racing on one secret: one challenge answered many times at once, and two
/// assertions with one counter value. Exactly one wins each time.
final class PasskeyRaceTests: XCTestCase {
    /// Over loopback the issuer has the bound port; the origin the authenticator writes is fixed.
    static let oneOrigin = ["WEBAUTHN_ORIGINS": PasskeyCeremony.origin]

    func testOneAssertionSentManyTimesAtOnceLogsInOnce() async throws {
        try await withTestApp(.live, settings: Self.oneOrigin) { app in
            var (_, authenticator) = try await PasskeyCeremony.holder("racer", on: app)
            let ceremony = PasskeyCeremony(client: app.client)
            for trial in 1...5 {
                let assertion = try await ceremony.assertion(&authenticator)
                let codes = try await statusCodes(of: (0..<8).map { _ in { try await ceremony.sendLogin(assertion) } })
                XCTAssertEqual(codes.sorted(), [200] + Array(repeating: 401, count: 7), "trial \(trial)")
            }
            let sessions = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = 'racer')")
            XCTAssertEqual(try sessions.first?.decode(column: "n", as: Int.self), 6, "the password login and one per trial")
        }
    }

    func testOneRegistrationSentManyTimesAtOnceStoresOnePasskey() async throws {
        try await withTestApp(.live, settings: Self.oneOrigin) { app in
            _ = try await User.create(username: "registrar", on: app)
            let token = try await app.client.session("registrar", scope: "account").value
            let ceremony = PasskeyCeremony(client: app.client)
            var authenticator = try PasskeyCeremony.authenticator()
            let options = try await ceremony.creationOptions(token)
            let credential = try authenticator.register(challenge: options.challenge, userID: options.userID)
            let codes = try await statusCodes(of: (0..<8).map { index in { try await ceremony.sendRegistration(credential, name: "Key \(index)", token: token) } })
            XCTAssertEqual(codes.sorted(), [201] + Array(repeating: 400, count: 7))
            let stored = try await app.til.db.query("SELECT count(*) AS n FROM passkeys").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(stored, 1)
        }
    }

    /// A cloned authenticator answering two challenges with the same counter at once: the
    /// `WHERE sign_count = old` guard records one; the other is refused however they interleave.
    func testTwoAssertionsWithOneCounterValueRecordOne() async throws {
        try await withTestApp(.live, settings: Self.oneOrigin) { app in
            var (_, authenticator) = try await PasskeyCeremony.holder("clone", on: app)
            let ceremony = PasskeyCeremony(client: app.client)
            for trial in 1...5 {
                var copy = authenticator
                let first = try await ceremony.assertion(&authenticator)
                let second = try await ceremony.assertion(&copy)
                async let a = ceremony.sendLogin(first)
                async let b = ceremony.sendLogin(second)
                let codes = try await [a, b].map(\.status.code)
                XCTAssertEqual(codes.sorted(), [200, 401], "trial \(trial)")
            }
        }
    }
}

/// Two `til-server` processes over one database, behind one origin as a balancer would be: a
/// challenge issued by one is consumed by the other, and then by neither again.
final class PasskeyAcrossProcessesTests: ServerProcessTestCase {
    func testAChallengeIssuedByOneProcessIsSpentOnTheOther() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: ["WEBAUTHN_ORIGINS": PasskeyCeremony.origin])
            let (a, b) = (PasskeyCeremony(client: servers[0].client), PasskeyCeremony(client: servers[1].client))
            _ = try await User.create(username: "traveller", on: app)
            let token = try await servers[0].client.session("traveller", scope: "account").value
            var authenticator = try PasskeyCeremony.authenticator(.edDSA)
            // Registration: options from A, the answer to B, the same answer again to A.
            let options = try await a.creationOptions(token)
            let credential = try authenticator.register(challenge: options.challenge, userID: options.userID)
            let registered = try await b.sendRegistration(credential, name: "Über-Schlüssel", token: token)
            XCTAssertEqual(registered.status.code, 201, registered.bodyString)
            assertRefused(try await a.sendRegistration(credential, name: "again", token: token), 400, mentioning: "already used")

            // Login: options from A, the assertion to B, replayed on A.
            let assertion = try await a.assertion(&authenticator, username: "TRAVELLER")
            let login = try await b.sendLogin(assertion)
            XCTAssertEqual(login.status.code, 200, login.bodyString)
            assertRefused(try await a.sendLogin(assertion), 401, mentioning: "already used", "the replay on the issuing process")

            // One assertion to both at once, four times each: one session.
            let raced = try await a.assertion(&authenticator)
            let codes = try await statusCodes(of: (0..<8).map { index in { try await (index.isMultiple(of: 2) ? a : b).sendLogin(raced) } })
            XCTAssertEqual(codes.sorted(), [200] + Array(repeating: 401, count: 7))
        }
    }
}
