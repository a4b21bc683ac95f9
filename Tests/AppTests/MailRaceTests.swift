import AppTesting
import Foundation
import Mail
import MailTesting
import Postgres
import WebTesting
import XCTest
@testable import App

/// Senders racing for the same rows in one process (the database decides, as it does between
/// processes): every message exactly once, and a lease that keeps a row from a second sender
/// until it ends.
final class MailRaceTests: XCTestCase {
    func testTwoSendersRacingForOneRowSendItOnce() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            for _ in 0..<10 {
                try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
                let (one, two) = (try XCTUnwrap(try app.til.mailSender()), try XCTUnwrap(try app.til.mailSender()))
                async let first = one.sendOnce()
                async let second = two.sendOnce()
                let passes = try await [first, second]
                XCTAssertEqual(passes.map(\.sent).reduce(0, +), 1)
            }
            XCTAssertEqual(sink.attempts.count, 10)
            XCTAssertEqual(Set(sink.messages.compactMap { $0.parsed.header("Message-ID") }).count, 10)
        }
    }

    func testManyRowsFourSendersEachMessageExactlyOnce() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            let db = app.til.db
            let ids = try await withThrowingTaskGroup(of: UUID.self) { group in
                for index in 0..<60 {
                    group.addTask { try await MailTestSupport.queue(MailTestSupport.mail(to: "user\(index)@example.com"), on: db) }
                }
                return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
            }
            var senders: [MailSender] = []
            for _ in 0..<4 {
                var sender = try XCTUnwrap(try app.til.mailSender())
                sender.batchSize = 3
                senders.append(sender)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for sender in senders {
                    group.addTask {
                        while try await sender.sendOnce().claimed > 0 {}
                    }
                }
                try await group.waitForAll()
            }
            let expected = Set(ids.map { "<\($0.uuidString.lowercased())@til.example>" })
            let received = sink.attempts.compactMap { $0.parsed.header("Message-ID") }
            XCTAssertEqual(received.count, 60, "no message twice")
            XCTAssertEqual(Set(received), expected, "and none missing")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty)
        }
    }

    func testALeasedRowWaitsForItsLeaseToEnd() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sender = try XCTUnwrap(try app.til.mailSender())
            // A process claims the row and dies before sending (nothing but the claim happens).
            let claimed = try await sender.claims.claim(limit: 10, token: UUID(), asOf: nil)
            XCTAssertEqual(claimed.count, 1)
            let meanwhile = try await sender.sendOnce()
            XCTAssertEqual(meanwhile.claimed, 0, "held by the dead process's lease")
            let lease = sender.claims.lease.seconds
            XCTAssertEqual(lease, 2 * 5 + 5, "SMTP_TIMEOUT 5: twice it plus 5 s")
            let after = try await sender.sendOnce(asOf: Date().addingTimeInterval(lease + 1))
            XCTAssertEqual(after.sent, 1, "another sender takes it once the lease ended")
            XCTAssertEqual(sink.messages.count, 1)
        }
    }

    func testALateSenderCannotUndoANewerClaim() async throws {
        try await withTestApp(settings: ["SMTP_URL": "smtp://127.0.0.1:1", "MAIL_FROM": MailTestSupport.from]) { app in
            let id = try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sender = try XCTUnwrap(try app.til.mailSender())
            let (old, new) = (UUID(), UUID())
            _ = try await sender.claims.claim(limit: 1, token: old, asOf: nil)
            let later = Date().addingTimeInterval(sender.claims.lease.seconds + 1)
            _ = try await sender.claims.claim(limit: 1, token: new, asOf: later)
            let undone = try await sender.claims.retry(id, token: old, after: .seconds(5), error: "late", asOf: nil)
            XCTAssertFalse(undone, "the first claimant's lease ended: its failure changes nothing")
            try await sender.claims.giveUp(id, token: old)
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.map(\.claimed), [true], "still the second claimant's")
        }
    }
}
