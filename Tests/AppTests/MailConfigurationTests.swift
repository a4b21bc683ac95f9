import AppTesting
import Foundation
import MailTesting
import Web
import WebTesting
import XCTest
@testable import App

/// Mail as configured at start: bad values stop `serve` with one line (exit 78) that never
/// quotes a password; `/ready` says how mail goes out and stays 200 without a relay.
final class MailConfigurationTests: XCTestCase {
    func testBadMailSettingsStopServeWithOneLine() async throws {
        let keyOnly = FileManager.default.temporaryDirectory.appendingPathComponent("til-not-a-ca-\(UUID()).pem").path
        try "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".write(toFile: keyOnly, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keyOnly) }
        let from = ["MAIL_FROM": "no-reply@til.example"]
        let cases: [([String: String], String)] = [
            (from.merging(["SMTP_URL": "smtp://mailer:hunter2@mail.example/relay"]) { $1 }, "SMTP_URL must be smtp://"),
            (from.merging(["SMTP_URL": "http://mail.example"]) { $1 }, "SMTP_URL must be smtp://"),
            (from.merging(["SMTP_URL": "smtp://mail.example:99999"]) { $1 }, "SMTP_URL must be smtp://"),
            (["SMTP_URL": "smtp://mailer:hunter2@mail.example"], "MAIL_FROM is required with SMTP_URL"),
            (["MAIL_FROM": "TIL <no-reply@til.example"], "MAIL_FROM must be an address"),
            (["MAIL_FROM": "a@b@c.example"], "MAIL_FROM must be an address"),
            (["SMTP_CA_FILE": keyOnly], "SMTP_CA_FILE must be a readable PEM file"),
            (["SMTP_TIMEOUT": "0"], "SMTP_TIMEOUT must be a whole number of seconds from 1 to 600"),
        ]
        for (variables, expected) in cases {
            let run = try await TILServerRun.run(["serve"], environment: try TILServerRun.testEnvironment(variables))
            run.assertFailure(78, mentioning: [expected])
            XCTAssertFalse(run.stderr.contains("hunter2"), run.stderr)
        }
    }

    func testReadySaysHowMailGoesOut() async throws {
        try await withTestApp { app in
            let ready = try await app.client.send(.get, "/ready")
            XCTAssertEqual(ready.bodyString, #"{"status":"ready","mail":"files"}"#)
        }
        let sink = try MailTestSupport.sink(self)
        try await withTestApp(settings: MailTestSupport.settings(sink)) { app in
            let ready = try await app.client.send(.get, "/ready")
            XCTAssertEqual(ready.bodyString, #"{"status":"ready","mail":"smtp"}"#)
        }
    }

    func testProductionWithoutSMTPIsReadyAndQueuesButSendsNothing() async throws {
        let capture = LogCapture()
        let settings = ["ENVIRONMENT": "production", "ADMIN_PASSWORD": "a long production password"]
        try await withTestApp(settings: settings, logger: capture.logger()) { app in
            XCTAssertEqual(app.til.configuration.mail.delivery, .notConfigured)
            let ready = try await app.client.send(.get, "/ready")
            XCTAssertEqual(ready.status.code, 200, "a node without a relay still serves everything else")
            XCTAssertEqual(ready.bodyString, #"{"status":"ready","mail":"not configured"}"#)
            XCTAssertThrowsError(try app.til.configuration.mail.requireSending()) { error in
                XCTAssertEqual((error as? Abort)?.status.code, 503)
            }
            try app.til.startMailSender(app.app)
            XCTAssertTrue(capture.lines.contains { $0.message.contains("mail not configured") }, "said once at start")
            try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 0)
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.count, 1, "queued until a server with a relay runs")
        }
    }
}
