import AppTesting
import Foundation
import Glibc
import Mail
import MailTesting
import Postgres
import WebTesting
import XCTest
@testable import App

/// TLS to the relay as configured: STARTTLS to a sink whose self-signed certificate is
/// trusted only through `SMTP_CA_FILE`, an untrusted one that gets nothing, and STARTTLS
/// required for any relay off this machine.
final class MailSecurityTests: XCTestCase {
    func testSTARTTLSToACertificateTrustedThroughSMTPCAFile() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        let sink = try MailTestSupport.sink(self, certificateFile: certificate.certificateFile, privateKeyFile: certificate.privateKeyFile)
        let settings = MailTestSupport.settings(sink, ["SMTP_URL": "smtp://mailer:s3cret@localhost:\(sink.port)", "SMTP_CA_FILE": certificate.certificateFile])
        try await withTestApp(settings: settings) { app in
            try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 1)
            let received = try XCTUnwrap(sink.messages.first)
            XCTAssertTrue(received.overTLS, "upgraded with STARTTLS, the certificate checked for localhost")
            XCTAssertEqual(received.username, "mailer")
            XCTAssertEqual(received.password, "s3cret")
        }
    }

    func testAnUntrustedCertificateSendsNothingAndKeepsTheRow() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        let sink = try MailTestSupport.sink(self, certificateFile: certificate.certificateFile, privateKeyFile: certificate.privateKeyFile)
        let settings = MailTestSupport.settings(sink, ["SMTP_URL": "smtp://mailer:s3cret@127.0.0.1:\(sink.port)"])
        try await withTestApp(settings: settings) { app in
            let id = try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 0)
            XCTAssertTrue(sink.attempts.isEmpty, "no data, and no password, to a server that failed verification")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.map(\.id), [id], "kept for when the CA is configured")
            XCTAssertEqual(rows.first?.attempts, 1)
            let error = try XCTUnwrap(rows.first?.lastError)
            XCTAssertFalse(error.contains("s3cret"), error)
        }
    }

    func testSTARTTLSIsRequiredForARelayOffThisMachine() async throws {
        guard let address = Self.nonLoopbackIPv4() else { throw XCTSkip("no non-loopback IPv4 address on this machine") }
        let sink = try MailSink(host: "0.0.0.0")
        addTeardownBlock { sink.stop() }
        let settings = ["SMTP_URL": "smtp://mailer:s3cret@\(address):\(sink.port)", "MAIL_FROM": MailTestSupport.from, "SMTP_TIMEOUT": "5"]
        try await withTestApp(settings: settings) { app in
            guard case .smtp(let endpoint) = app.til.configuration.mail.delivery else { return XCTFail("smtp expected") }
            XCTAssertEqual(endpoint.server(app.til.configuration.mail).security, .startTLSRequired)
            try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let sent = try await app.til.deliverQueuedMail()
            XCTAssertEqual(sent, 0)
            XCTAssertEqual(sink.connectionCount, 1, "the relay was reached")
            XCTAssertTrue(sink.attempts.isEmpty, "but a server without STARTTLS gets no message and no password")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.first?.attempts, 1)
        }
    }

    /// The first IPv4 address of an interface that is up and not loopback.
    static func nonLoopbackIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            inet_ntop(AF_INET, &ipv4, &text, socklen_t(INET_ADDRSTRLEN))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
