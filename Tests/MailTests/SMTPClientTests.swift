import Foundation
import Mail
import MailTesting
import WebTesting
import XCTest

/// libcurl's SMTP conversation with the tests' own sink: what arrives, what TLS is used and
/// trusted, and how each kind of failure is reported.
final class SMTPClientTests: XCTestCase {
    private func message(to recipient: String = "ada@example.com", subject: String = "Verify your email address") throws -> MailMessage {
        MailMessage(
            from: try MailFrom(parsing: "TIL <no-reply@til.example>"), to: try MailAddress(recipient), subject: subject,
            text: "Open this link:\n.hidden dot line\nhttps://til.example/verify-email?token=abc", html: "<p>Open</p>",
            messageID: "\(UUID().uuidString.lowercased())@til.example", date: Date())
    }

    private func server(
        _ sink: MailSink, scheme: String = "smtp", security: SMTPServer.Security = .startTLSWhenOffered, caFile: String? = nil,
        timeout: Duration = .seconds(10), username: String? = nil, password: String? = nil
    ) -> SMTPServer {
        SMTPServer(
            url: "\(scheme)://127.0.0.1:\(sink.port)", username: username, password: password, security: security, caFile: caFile,
            connectTimeout: .seconds(5), timeout: timeout)
    }

    func testDeliversBothPartsWithTheEnvelopeAndLogin() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let sent = try message()
        try SMTPClient(server: server(sink, username: "mailer", password: "p@ss word")).send(sent)
        let received = try XCTUnwrap(sink.messages.first)
        XCTAssertEqual(received.sender, "no-reply@til.example")
        XCTAssertEqual(received.recipients, ["ada@example.com"])
        XCTAssertEqual(received.username, "mailer")
        XCTAssertEqual(received.password, "p@ss word")
        XCTAssertFalse(received.overTLS, "loopback without STARTTLS on offer stays plain")
        XCTAssertEqual(received.data, try sent.rendered(), "byte for byte, dot-stuffing undone")
        let mail = received.parsed
        XCTAssertEqual(mail.header("Message-ID"), "<\(sent.messageID)>")
        XCTAssertEqual(mail.text, sent.text, "a line starting with a dot survives")
        XCTAssertEqual(mail.html, sent.html)
    }

    func testOneConnectionCarriesABurst() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let client = SMTPClient(server: server(sink))
        for _ in 0..<5 { try client.send(try message()) }
        XCTAssertEqual(sink.messages.count, 5)
        XCTAssertEqual(sink.connectionCount, 1, "libcurl keeps the connection between messages")
    }

    func testSTARTTLSWithACertificateTrustedThroughTheCAFile() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        let sink = try MailSink(certificateFile: certificate.certificateFile, privateKeyFile: certificate.privateKeyFile)
        defer { sink.stop() }
        try SMTPClient(server: server(sink, security: .startTLSRequired, caFile: certificate.certificateFile, username: "u", password: "p"))
            .send(try message())
        let received = try XCTUnwrap(sink.messages.first)
        XCTAssertTrue(received.overTLS)
        XCTAssertEqual(received.username, "u", "AUTH after the upgrade")
    }

    func testAnUntrustedCertificateSendsNothing() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        let sink = try MailSink(certificateFile: certificate.certificateFile, privateKeyFile: certificate.privateKeyFile)
        defer { sink.stop() }
        for security in [SMTPServer.Security.startTLSRequired, .startTLSWhenOffered] {
            XCTAssertThrowsError(try SMTPClient(server: server(sink, security: security)).send(try message())) { error in
                XCTAssertEqual((error as? SMTPError)?.kind, .tls, "\(error)")
            }
        }
        XCTAssertTrue(sink.attempts.isEmpty, "no message data went to a server whose certificate failed")
    }

    func testRequiredSTARTTLSRefusesAServerWithout() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        XCTAssertThrowsError(try SMTPClient(server: server(sink, security: .startTLSRequired, username: "u", password: "secret")).send(try message())) {
            XCTAssertEqual(($0 as? SMTPError)?.kind, .tls, "\($0)")
        }
        XCTAssertTrue(sink.attempts.isEmpty)
    }

    func testImplicitTLS() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        let sink = try MailSink(certificateFile: certificate.certificateFile, privateKeyFile: certificate.privateKeyFile, implicitTLS: true)
        defer { sink.stop() }
        try SMTPClient(server: server(sink, scheme: "smtps", security: .implicitTLS, caFile: certificate.certificateFile)).send(try message())
        XCTAssertEqual(sink.messages.first?.overTLS, true)
    }

    func testRefusalsSayWhichCommandAndWhichCode() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let client = SMTPClient(server: server(sink))
        sink.answerNext([.refuse(code: 451, text: "4.3.0 try again later")])
        XCTAssertThrowsError(try client.send(try message())) { error in
            let error = error as? SMTPError
            XCTAssertEqual(error?.kind, .refused(.message))
            XCTAssertEqual(error?.reply, 451)
            XCTAssertEqual(error?.isPermanent, false)
        }
        sink.answerRecipients(.refuse(code: 550, text: "5.1.1 no such user"))
        XCTAssertThrowsError(try client.send(try message())) { error in
            XCTAssertEqual((error as? SMTPError)?.kind, .refused(.recipient))
            XCTAssertEqual((error as? SMTPError)?.isPermanent, true)
        }
        sink.answerRecipients(.accept)
        try client.send(try message())
        XCTAssertEqual(sink.messages.count, 1, "after failures the client starts over cleanly")
        XCTAssertEqual(sink.attempts.count, 2)
    }

    func testAHangingServerTimesOut() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        sink.answerNext([.hang])
        let start = ContinuousClock.now
        XCTAssertThrowsError(try SMTPClient(server: server(sink, timeout: .seconds(2))).send(try message())) {
            XCTAssertEqual(($0 as? SMTPError)?.kind, .timeout, "\($0)")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(8))
        XCTAssertTrue(sink.messages.isEmpty)
    }

    func testAbortStopsASendWaitingForItsReply() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        sink.answerNext([.hang])
        let client = SMTPClient(server: server(sink, timeout: .seconds(60)))
        let sent = try message()
        let start = ContinuousClock.now
        let sending = Task.detached { () -> SMTPError? in
            do {
                try client.send(sent)
                return nil
            } catch {
                return error as? SMTPError
            }
        }
        _ = try await sink.waitForAttempts(count: 1)
        client.abort()
        let error = await sending.value
        XCTAssertEqual(error?.kind, .cancelled, "\(String(describing: error))")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "not the 60 s timeout")
        XCTAssertThrowsError(try client.send(try message()), "a stopped client sends nothing more") {
            XCTAssertEqual(($0 as? SMTPError)?.kind, .cancelled)
        }
        XCTAssertTrue(sink.messages.isEmpty)
    }

    func testNoServerIsAConnectFailure() async throws {
        let sink = try MailSink()
        let port = sink.port
        sink.stop()
        let server = SMTPServer(url: "smtp://127.0.0.1:\(port)", security: .startTLSWhenOffered, connectTimeout: .seconds(2), timeout: .seconds(5))
        XCTAssertThrowsError(try SMTPClient(server: server).send(try message())) {
            XCTAssertEqual(($0 as? SMTPError)?.kind, .connect, "\($0)")
        }
    }

    func testUnicodeRecipientAndSubject() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let sent = try message(to: "zoë@exämple.com", subject: "Vérifiez votre adresse ✉️")
        try SMTPClient(server: server(sink)).send(sent)
        let received = try XCTUnwrap(sink.messages.first)
        XCTAssertEqual(received.parsed.subject, "Vérifiez votre adresse ✉️")
        XCTAssertEqual(received.parsed.header("To"), "zoë@exämple.com")
        XCTAssertEqual(received.recipients.count, 1)
        print("SMTPUTF8 envelope:", received.recipients, received.mailParameters)
    }
}
