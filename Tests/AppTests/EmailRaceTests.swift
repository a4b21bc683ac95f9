import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Email verification under concurrency: one token spent at once by many requests verifies
/// once; two accounts proving one address at once, or an address taken meanwhile, never end
/// with two accounts on it; the send throttle admits exactly its limit of sends raced together.
final class EmailRaceTests: XCTestCase {
    func testOneTokenSentSixTimesAtOnceVerifiesOnce() async throws {
        try await withTestApp { app in
            let user = try await app.user("sam", email: "sam@old.example", verified: true)
            let session = try await app.client.session("sam")
            _ = try await app.client.changeEmail(to: "sam@new.example", bearer: session.value)
            let token = try await app.verificationToken(mailedTo: "sam@new.example")
            let client = app.client
            let codes = try await statusCodes(of: (0..<6).map { _ in { try await client.verifyEmail(token) } })
            XCTAssertEqual(codes.sorted(), [204, 400, 400, 400, 400, 400])
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "sam@new.example")
        }
    }

    /// Two accounts each with a pending change to one address, both links followed at once:
    /// the unique index lets one through; the other is a 409 naming `email`, its link kept.
    func testTwoAccountsProvingOneAddressAtOnceEndWithOneHolder() async throws {
        try await withTestApp { app in
            var tokens: [String] = []
            for name in ["kim", "kai"] {
                _ = try await User.create(username: name, on: app)
                let session = try await app.client.session(name)
                let started = try await app.client.changeEmail(to: name == "kim" ? "shared@til.example" : "SHARED@til.example", bearer: session.value)
                XCTAssertEqual(started.status.code, 202, "a pending address is no one's yet: \(started.bodyString)")
                let queued = try await app.queuedMails()
                tokens.append(try XCTUnwrap(queued.last?.linkToken))
            }
            let client = app.client
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for token in tokens { group.addTask { try await client.verifyEmail(token) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            XCTAssertEqual(answers.map(\.status.code).sorted(), [204, 409])
            let refused = try XCTUnwrap(answers.first { $0.status.code == 409 })
            XCTAssertEqual(try refused.decode(ErrorAnswer.self).reason, "'email' is already taken.")
            let holders = try await app.til.db.query("SELECT username FROM users WHERE lower(email) = 'shared@til.example'")
            XCTAssertEqual(holders.count, 1, "never two accounts on one address")
            let kept = try await app.til.db.query("SELECT 1 FROM email_verifications")
            XCTAssertEqual(kept.count, 1, "the refused link is not spent: it works if the address is freed")
        }
    }

    func testAnAddressTakenBetweenTheChangeAndItsLinkIsRefusedAtTheLink() async throws {
        try await withTestApp { app in
            let user = try await app.user("lea", email: "lea@til.example", verified: true)
            let session = try await app.client.session("lea")
            _ = try await app.client.changeEmail(to: "prize@til.example", bearer: session.value)
            let token = try await app.verificationToken(mailedTo: "prize@til.example")
            let other = try await app.createUser("other", name: "O", email: "Prize@TIL.example")
            XCTAssertEqual(other.status.code, 200, other.bodyString)
            let refused = try await app.client.verifyEmail(token)
            XCTAssertEqual(refused.status.code, 409, refused.bodyString)
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "lea@til.example", "the old address stays")
            XCTAssertTrue(stored.verified)
        }
    }

    /// Ten resends at once: the advisory locks serialise the count, so exactly the account's
    /// budget goes out (the creation's own mail counted in it).
    func testResendsRacedTogetherSendExactlyTheAccountsBudget() async throws {
        try await withTestApp { app in
            let created = try await app.createUser("racer", name: "R", email: "racer@til.example")
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let session = try await app.client.session("racer", "s3cret-pass")
            let (client, token) = (app.client, session.value)
            let codes = try await statusCodes(of: (0..<10).map { _ in
                { try await client.send(.post, "/api/users/me/email/verification", auth: .bearer(token)) }
            })
            let budget = EmailSendThrottle.perAccount - 1
            XCTAssertEqual(codes.filter { $0 == 204 }.count, budget, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 10 - budget, "\(codes.sorted())")
            let mails = try await app.queuedMails(to: "racer@til.example")
            XCTAssertEqual(mails.count, EmailSendThrottle.perAccount)
        }
    }

    /// Eight accounts aiming changes at one inbox at once: at most the recipient's budget of
    /// mails reaches it.
    func testChangesAimedAtOneInboxAtOnceSendAtMostItsBudget() async throws {
        try await withTestApp { app in
            var sessions: [String] = []
            for index in 0..<8 {
                _ = try await User.create(username: "aim\(index)", on: app)
                sessions.append(try await app.client.session("aim\(index)").value)
            }
            let client = app.client
            let codes = try await statusCodes(of: sessions.enumerated().map { index, token in
                { try await client.changeEmail(to: index % 2 == 0 ? "victim@til.example" : "Victim@TIL.example", bearer: token) }
            })
            XCTAssertEqual(codes.filter { $0 == 202 }.count, EmailSendThrottle.perRecipient, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 8 - EmailSendThrottle.perRecipient, "\(codes.sorted())")
            let mails = try await app.til.db.query("SELECT 1 FROM mail_outbox WHERE lower(recipient) = 'victim@til.example'")
            XCTAssertEqual(mails.count, EmailSendThrottle.perRecipient)
        }
    }
}
