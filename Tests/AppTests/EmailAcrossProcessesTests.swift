import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two `til-server` processes over one database: a link issued by one is verified by the
/// other and spent for both; one token raced to both verifies once; the send throttle counts
/// the sends of both processes together.
final class EmailAcrossProcessesTests: ServerProcessTestCase {
    func testALinkIssuedOnOneProcessIsVerifiedOnTheOtherOnce() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let admin = try await a.session("admin")
            let created = try await a.send(
                .post, "/api/users", json: ["name": "Pia", "username": "pia", "password": "s3cret-pass", "email": "pia@til.example"],
                auth: .bearer(admin.value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let token = try await app.verificationToken(mailedTo: "pia@til.example")
            let verified = try await b.verifyEmail(token)
            XCTAssertEqual(verified.status.code, 204, verified.bodyString)
            let replay = try await a.verifyEmail(token)
            XCTAssertEqual(replay.status.code, 400, "spent for the first process too: \(replay.bodyString)")
            let session = try await a.session("pia", "s3cret-pass")
            let profile = try await a.profile(session.value)
            XCTAssertEqual(profile.emailVerified, true, "the first process sees the second's verification")
        }
    }

    func testOneTokenRacedToBothProcessesVerifiesOnce() async throws {
        try await withTestApp { app in
            let user = try await app.user("quinn", email: "quinn@old.example", verified: true)
            servers = try await ServerProcess.healthy(2, settings: [:])
            let clients = [servers[0].client, servers[1].client]
            let session = try await clients[0].session("quinn")
            let started = try await clients[0].changeEmail(to: "quinn@new.example", bearer: session.value)
            XCTAssertEqual(started.status.code, 202, started.bodyString)
            let token = try await app.verificationToken(mailedTo: "quinn@new.example")
            let codes = try await statusCodes(of: (0..<6).map { index in { try await clients[index % 2].verifyEmail(token) } })
            XCTAssertEqual(codes.sorted(), [204, 400, 400, 400, 400, 400])
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "quinn@new.example")
        }
    }

    func testTheThrottleCountsTheSendsOfBothProcesses() async throws {
        try await withTestApp { app in
            _ = try await app.user("remy", email: "remy@til.example", verified: false)
            servers = try await ServerProcess.healthy(2, settings: [:])
            let clients = [servers[0].client, servers[1].client]
            let token = try await clients[0].session("remy").value
            let codes = try await statusCodes(of: (0..<8).map { index in
                { try await clients[index % 2].send(.post, "/api/users/me/email/verification", auth: .bearer(token)) }
            })
            XCTAssertEqual(codes.filter { $0 == 204 }.count, EmailSendThrottle.perAccount, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 8 - EmailSendThrottle.perAccount, "\(codes.sorted())")
        }
    }
}
