import AppTesting
import Foundation
import Mail
import MailTesting
import Postgres
import WebTesting
import XCTest
@testable import App

/// The sender loop in one process against the tests' SMTP sink: what arrives, when a row goes,
/// and what a failure leaves behind.
final class MailDeliveryTests: XCTestCase {
    func testAQueuedMessageArrivesWithBothPartsAndItsRowGoes() async throws {
        let sink = try MailTestSupport.sink(self)
        let capture = LogCapture()
        try await withTestApp(settings: MailTestSupport.settings(sink), logger: capture.logger()) { app in
            let mail = MailTestSupport.mail(token: "abc123")
            let id = try await MailTestSupport.queue(mail, on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 1)
            let received = try XCTUnwrap(sink.messages.first)
            XCTAssertEqual(received.sender, "no-reply@til.example")
            XCTAssertEqual(received.recipients, ["ada@example.com"])
            let parsed = received.parsed
            XCTAssertEqual(parsed.header("Message-ID"), "<\(id.uuidString.lowercased())@til.example>")
            XCTAssertEqual(parsed.header("From"), "\"TIL\" <no-reply@til.example>")
            XCTAssertEqual(parsed.header("To"), "ada@example.com")
            XCTAssertEqual(parsed.subject, "Reset your TIL password")
            XCTAssertNotNil(parsed.header("Date"))
            XCTAssertEqual(parsed.text, mail.text)
            XCTAssertEqual(parsed.html, mail.html)
            XCTAssertTrue(try XCTUnwrap(parsed.text).contains("https://til.example/reset-password?token=abc123"))
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty, "deleted after the 250")
            let audit = try XCTUnwrap(capture.lines.first { $0.metadata["event"] == "mail.sent" })
            XCTAssertEqual(audit.metadata["mail-id"], id.uuidString.lowercased())
            XCTAssertEqual(audit.metadata["kind"], "password-reset")
            XCTAssertFalse(audit.fullText.contains("abc123"), "no token in the audit line")
        }
    }

    func testA451IsRetriedAfterTheBackoffWithTheSameMessageID() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            sink.answerNext([.refuse(code: 451, text: "4.3.0 greylisted, try again later")])
            let id = try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let first = try await app.til.deliverQueuedMail()
            XCTAssertEqual(first, 0)
            let stored = try await MailTestSupport.rows(on: app.til.db)
            let row = try XCTUnwrap(stored.first)
            XCTAssertEqual(row.id, id)
            XCTAssertEqual(row.attempts, 1)
            XCTAssertFalse(row.claimed)
            XCTAssertTrue(try XCTUnwrap(row.lastError).contains("451"), "\(String(describing: row.lastError))")
            XCTAssertFalse(try XCTUnwrap(row.lastError).contains("Reset your"), "no content in last_error")
            XCTAssertGreaterThan(row.dueInSeconds, 4, "the first backoff is 5 to 6 s")
            XCTAssertLessThan(row.dueInSeconds, 6.5)

            let early = try await app.til.deliverQueuedMail()
            XCTAssertEqual(early, 0, "not due yet")
            XCTAssertEqual(sink.attempts.count, 1)

            let later = try await app.til.deliverQueuedMail(asOf: Date().addingTimeInterval(7))
            XCTAssertEqual(later, 1)
            XCTAssertEqual(sink.attempts.count, 2)
            XCTAssertEqual(sink.messages.count, 1)
            XCTAssertEqual(sink.attempts[0].data, sink.attempts[1].data, "the retry sends the same bytes, Message-ID and Date included")
            XCTAssertEqual(sink.messages[0].parsed.header("Message-ID"), "<\(id.uuidString.lowercased())@til.example>")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty)
        }
    }

    func testARefusalForGoodIsGivenUpAndAudited() async throws {
        let sink = try MailTestSupport.sink(self)
        let capture = LogCapture()
        try await withTestApp(settings: MailTestSupport.settings(sink), logger: capture.logger()) { app in
            sink.answerRecipients(.refuse(code: 550, text: "5.1.1 no such mailbox"))
            let id = try await MailTestSupport.queue(MailTestSupport.mail(to: "gone@example.com"), on: app.til.db)
            let kept = try await MailTestSupport.queue(MailTestSupport.mail(to: "ada@example.com"), on: app.til.db)
            _ = try await app.til.deliverQueuedMail()
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty, "the 550 is given up, and the next message was still tried: \(rows.map(\.id)) (kept \(kept))")
            let failed = try XCTUnwrap(capture.lines.first { $0.metadata["event"] == "mail.failed" })
            XCTAssertEqual(failed.metadata["mail-id"], id.uuidString.lowercased())
            XCTAssertTrue(failed.metadata["error"]?.contains("550") == true, failed.fullText)
        }
    }

    func testARelayThatIsDownKeepsEveryMessageAndEndsThePass() async throws {
        let sink = try MailSink()
        let port = sink.port
        sink.stop()
        try await withTestApp(settings: ["SMTP_URL": "smtp://127.0.0.1:\(port)", "MAIL_FROM": MailTestSupport.from]) { app in
            for index in 0..<3 { try await MailTestSupport.queue(MailTestSupport.mail(to: "user\(index)@example.com"), on: app.til.db) }
            let pass = try await XCTUnwrap(try app.til.mailSender()).sendOnce()
            XCTAssertEqual(pass.sent, 0)
            XCTAssertTrue(pass.relayFailed, "the sender pauses, not the messages")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.count, 3, "nothing lost")
            XCTAssertEqual(rows.map(\.attempts), [1, 0, 0], "one connection attempt, not one per message")
            XCTAssertEqual(rows.map(\.claimed), [false, false, false], "the untried ones handed back at once")
            XCTAssertTrue(rows.allSatisfy { $0.dueInSeconds <= 0 }, "all due as soon as the relay answers again")
            XCTAssertTrue(try XCTUnwrap(rows.first?.lastError).contains("onnect"), "\(String(describing: rows.first?.lastError))")
        }
    }

    func testBackoffSchedules() {
        let backoff = MailBackoff()
        XCTAssertEqual((1...6).map { backoff.delay(afterFailure: $0, jitter: 0) }, [5, 10, 20, 40, 80, 160].map { .seconds($0) })
        XCTAssertEqual(backoff.delay(afterFailure: 40, jitter: 0), .seconds(900))
        XCTAssertEqual(backoff.delay(afterFailure: 1, jitter: 0.2), .seconds(6))
        XCTAssertEqual((1...8).map { backoff.pause(afterRelayFailures: $0, jitter: 0) }, [1, 2, 4, 8, 16, 32, 60, 60].map { .seconds($0) })
    }

    func testDecoysAreDeletedUnsent() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            for _ in 0..<3 { try await app.til.db.execute(MailOutbox.enqueueDecoy(kind: .passwordReset)) }
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 0)
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty)
            XCTAssertEqual(sink.connectionCount, 0, "a decoy opens no connection")
        }
    }

    func testAStoredRecipientWithALineBreakIsGivenUpNotInjected() async throws {
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            for recipient in ["ada@example.com>\r\nRCPT TO:<thief@evil.example", "ada@example.com\r\nBcc: thief@evil.example", "no-at-sign"] {
                try await MailTestSupport.queue(MailTestSupport.mail(to: recipient), on: app.til.db)
            }
            try await MailTestSupport.queue(MailTestSupport.mail(to: "ada@example.com"), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 1)
            XCTAssertEqual(sink.attempts.map(\.recipients), [["ada@example.com"]])
            XCTAssertFalse(String(decoding: sink.attempts[0].data, as: UTF8.self).contains("thief"))
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty, "an unsendable message is given up, not retried forever")
        }
    }

    func testUnicodeSubjectRecipientAndSenderName() async throws {
        let sink = try MailTestSupport.sink(self)
        let settings = MailTestSupport.settings(sink, ["MAIL_FROM": "Zoë's TIL <no-reply@til.example>"])
        try await withTestApp(settings: settings) { app in
            let mail = MailTestSupport.mail(to: "zoë@exämple.com", subject: "Réinitialisez votre mot de passe — 密码")
            try await MailTestSupport.queue(mail, on: app.til.db)
            _ = try await app.til.deliverQueuedMail()
            let received = try XCTUnwrap(sink.messages.first)
            XCTAssertEqual(received.recipients, ["zoë@exämple.com"])
            XCTAssertEqual(received.mailParameters, ["SMTPUTF8"], "libcurl asks for SMTPUTF8 for a non-ASCII address")
            XCTAssertEqual(received.parsed.subject, "Réinitialisez votre mot de passe — 密码")
            XCTAssertEqual(received.parsed.header("To"), "zoë@exämple.com")
            XCTAssertTrue(try XCTUnwrap(received.parsed.header("From")).hasSuffix("<no-reply@til.example>"))
            XCTAssertEqual(received.parsed.text, mail.text)
        }
    }

    func testWithoutSMTPTestingWritesEMLFilesOwnerOnly() async throws {
        try await withTestApp { app in
            guard case .files(let directory) = app.til.configuration.mail.delivery else { return XCTFail("files expected") }
            XCTAssertNotEqual(directory, ".mail", "tests never write the repository's .mail/")
            let id = try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 1)
            let path = "\(directory)/\(id.uuidString.lowercased())@localhost.eml"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            let parsed = ParsedMail(Array(bytes))
            XCTAssertEqual(parsed.subject, "Reset your TIL password")
            XCTAssertEqual(parsed.header("From"), "\"TIL\" <no-reply@localhost>")
            let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            XCTAssertEqual(permissions, 0o600, "the link in it works")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertTrue(rows.isEmpty)
        }
    }

    func testDeliveredMailHandsTestsTheMessagesInOrder() async throws {
        try await withTestApp { app in
            try await MailTestSupport.queue(MailTestSupport.mail(to: "first@example.com", token: "one"), on: app.til.db)
            try await MailTestSupport.queue(MailTestSupport.mail(to: "second@example.com", token: "two"), on: app.til.db)
            try await app.til.db.execute(MailOutbox.enqueueDecoy(kind: .passwordReset))
            let mail = try await app.deliveredMail()
            XCTAssertEqual(mail.map { $0.header("To") }, ["first@example.com", "second@example.com"])
            XCTAssertTrue(try XCTUnwrap(mail.last?.text).contains("token=two"))
            let again = try await app.deliveredMail()
            XCTAssertTrue(again.isEmpty, "each message once")
        }
    }
}
