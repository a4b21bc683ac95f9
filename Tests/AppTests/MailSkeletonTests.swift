import AppTesting
import Foundation
import Postgres
import Web
import XCTest
@testable import App

/// The mail outbox's foundations (issue 21): `SMTP_URL`/`MAIL_FROM`/`SMTP_CA_FILE` as read at
/// start, a message queued only when its transaction commits, and one look for both parts.
final class MailSkeletonTests: XCTestCase {
    private func settings(_ variables: [String: String], _ environment: Environment = .production) throws -> MailSettings {
        try MailSettings(reader: ConfigReader(environment: variables), environment: environment)
    }

    func testWithoutSMTPDevelopmentWritesFilesAndProductionCannotSend() throws {
        XCTAssertEqual(try settings([:], .development).delivery, .files(directory: ".mail"))
        XCTAssertEqual(try settings([:], .testing).delivery, .files(directory: ".mail"))
        let production = try settings([:])
        XCTAssertEqual(production.delivery, .notConfigured)
        XCTAssertThrowsError(try production.requireSending()) { error in
            XCTAssertEqual((error as? Abort)?.status.code, 503)
            XCTAssertEqual((error as? Abort)?.reason, "Mail is not configured on this server.")
        }
        XCTAssertNoThrow(try settings([:], .development).requireSending())
    }

    func testSMTPURLsAndWhenSTARTTLSIsRequired() throws {
        let from = ["MAIL_FROM": "TIL <no-reply@til.example>"]
        let relay = try settings(from.merging(["SMTP_URL": "smtp://mailer:p%40ss%20word@Mail.Example"]) { $1 })
        guard case .smtp(let endpoint) = relay.delivery else { return XCTFail("\(relay.delivery)") }
        XCTAssertEqual(endpoint.port, 587)
        XCTAssertEqual(endpoint.username, "mailer")
        XCTAssertEqual(endpoint.password, "p@ss word")
        XCTAssertTrue(endpoint.requiresSTARTTLS, "a relay off this machine is reached over TLS or not at all")
        XCTAssertFalse(endpoint.connectionURL.contains("p%40ss"), "credentials never travel in the URL")
        XCTAssertEqual(relay.from, "TIL <no-reply@til.example>")

        let cases: [(String, port: Int, implicit: Bool, starttls: Bool)] = [
            ("smtp://127.0.0.1:2525", 2525, false, false),
            ("smtp://localhost", 587, false, false),
            ("smtp://[::1]:25", 25, false, false),
            ("smtps://mail.example", 465, true, false),
            ("SMTP://mail.example:2587/", 2587, false, true),
        ]
        for (url, port, implicit, starttls) in cases {
            guard case .smtp(let endpoint) = try settings(from.merging(["SMTP_URL": url]) { $1 }).delivery else { return XCTFail(url) }
            XCTAssertEqual([endpoint.port], [port], url)
            XCTAssertEqual([endpoint.implicitTLS, endpoint.requiresSTARTTLS], [implicit, starttls], url)
        }
    }

    func testBadMailSettingsStopTheServerWithoutQuotingTheSecret() throws {
        let refusals: [([String: String], String)] = [
            (["SMTP_URL": "http://mail.example", "MAIL_FROM": "a@b.example"], "SMTP_URL must be smtp://"),
            (["SMTP_URL": "smtp://mail.example/relay", "MAIL_FROM": "a@b.example"], "SMTP_URL must be smtp://"),
            (["SMTP_URL": "smtp://u:hunter2@mail.example?x=1", "MAIL_FROM": "a@b.example"], "SMTP_URL must be smtp://"),
            (["SMTP_URL": "smtp://mail.example"], "MAIL_FROM is required with SMTP_URL"),
            (["MAIL_FROM": "no-reply@til.example\r\nBcc: x@evil.example"], "MAIL_FROM must be an address"),
            (["MAIL_FROM": "no address"], "MAIL_FROM must be an address"),
            (["SMTP_CA_FILE": "/nonexistent/ca.pem"], "SMTP_CA_FILE must be a readable PEM file"),
        ]
        for (variables, fragment) in refusals {
            XCTAssertThrowsError(try settings(variables), "\(variables)") { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(fragment), message)
                XCTAssertFalse(message.contains("hunter2"), "a secret's value is never quoted: \(message)")
            }
        }
    }

    func testAMessageIsQueuedOnlyWhenItsTransactionCommits() async throws {
        try await withTestApp { app in
            let db = app.til.db
            let mail = MailLayout.compose(kind: .passwordChanged, to: "zoë@til.example", subject: "Your TIL password was changed", paragraphs: ["Hi"])
            struct RolledBack: Error {}
            do {
                try await db.withTransaction { transaction in
                    try await transaction.execute(MailOutbox.enqueue(mail))
                    throw RolledBack()
                }
            } catch is RolledBack {}
            _ = try await db.withTransaction { transaction in try await transaction.execute(MailOutbox.enqueue(mail)) }
            let spliced: PostgresQuery = "WITH queued AS (\(MailOutbox.enqueueDecoy(kind: .passwordReset))) SELECT \(7) AS n"
            let seven = try await db.query(spliced).first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(seven, 7, "a fragment in a CTE keeps its binds")
            let rows = try await db.query("SELECT kind, recipient, subject, text_body, html_body, decoy FROM mail_outbox ORDER BY seq")
            XCTAssertEqual(rows.count, 2, "the rolled-back change queued nothing")
            XCTAssertEqual(try rows[0].decode(column: "kind", as: String.self), "password-changed")
            XCTAssertEqual(try rows[0].decode(column: "recipient", as: String.self), "zoë@til.example")
            XCTAssertEqual(try rows[0].decode(column: "text_body", as: String.self), mail.text)
            XCTAssertFalse(try rows[0].decode(column: "decoy", as: Bool.self))
            XCTAssertEqual(try rows[1].decode(column: "kind", as: String.self), "password-reset")
            XCTAssertTrue(try rows[1].decode(column: "decoy", as: Bool.self))
            XCTAssertEqual(try rows[1].decode(column: "recipient", as: String.self), "", "a decoy has nobody to go to")
        }
    }

    func testBothPartsCarryTheLinkAndItsLifetimeAndTheHTMLIsEscaped() {
        let mail = MailLayout.compose(
            kind: .passwordReset, to: "a@til.example", subject: "Reset <your> password",
            paragraphs: ["Someone asked to reset the password of <b>zoë</b>."],
            link: MailLink(url: "https://til.example/reset-password?token=a&b", label: "Choose a new password", lifetime: "30 minutes"))
        XCTAssertTrue(mail.text.contains("Choose a new password:\nhttps://til.example/reset-password?token=a&b"), mail.text)
        XCTAssertTrue(mail.text.contains("The link works for 30 minutes, once."), mail.text)
        XCTAssertTrue(mail.text.contains("<b>zoë</b>"), "the text part is text")
        XCTAssertTrue(mail.html.contains("&lt;b&gt;zoë&lt;/b&gt;"), mail.html)
        XCTAssertTrue(mail.html.contains("href=\"https://til.example/reset-password?token=a&amp;b\""), mail.html)
        XCTAssertTrue(mail.html.contains("<title>Reset &lt;your&gt; password</title>"), mail.html)
        XCTAssertFalse(mail.html.contains("<b>"))
    }
}
