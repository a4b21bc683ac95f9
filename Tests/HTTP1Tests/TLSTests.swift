import Foundation
import HTTP1
import Logging
import WebTesting
import XCTest

/// HTTPS on the server's own event loops, checked with independent TLS clients (curl, Python's
/// `ssl`, `openssl s_client`) against a certificate each test makes. Skips only when one of
/// those programs is not installed.
final class TLSTests: XCTestCase {
    private var certificate: SelfSignedCertificate!

    override func setUpWithError() throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        self.certificate = certificate
    }

    override func tearDown() {
        certificate = nil
    }

    private func tool(_ name: String) throws -> ExternalTool {
        guard let tool = ExternalTool(name) else { throw XCTSkip("\(name) is not installed") }
        return tool
    }

    private func python(_ script: String, port: Int) throws -> [String: Any] {
        let (status, output) = try tool("python3").run(["-c", script, String(port), certificate.certificateFile])
        XCTAssertEqual(status, 0, output)
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        return try XCTUnwrap(object, output)
    }

    /// `openssl s_client` against the server with `arguments`; (exit status, output). The system
    /// configuration (Debian's MinProtocol and security level) is set aside so that the client
    /// really offers TLS 1.0 when asked and any refusal is the server's.
    private func sClient(_ server: HTTPServer, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try tool("openssl").run(
            ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-cipher", "DEFAULT@SECLEVEL=0"]
                + arguments,
            environment: ["OPENSSL_CONF": "/dev/null"], input: "", timeLimit: .seconds(10))
    }

    func testCurlGetsAnswersOverOneConnection() async throws {
        let curl = try tool("curl")
        try await withServer(tls: certificate.tls) { server in
            let base = "https://127.0.0.1:\(server.port)"
            let (status, output) = try curl.run([
                "--silent", "--show-error", "--cacert", certificate.certificateFile,
                "--write-out", " %{http_code} %{num_connects} %{ssl_verify_result}\n", "\(base)/health", "\(base)/health",
            ])
            XCTAssertEqual(status, 0, output)
            // Two answers, the second on the first one's connection, the certificate verified.
            XCTAssertEqual(output, "GET /health body=0: 200 1 0\nGET /health body=0: 200 0 0\n")
        }
    }

    func testPythonNegotiatesTLS13AndHTTP11AndKeepsTheConnection() async throws {
        try await withServer(tls: certificate.tls) { server in
            let result = try python(TLSClientScripts.keepAlive, port: server.port)
            XCTAssertEqual(result["version"] as? String, "TLSv1.3")
            XCTAssertEqual(result["alpn"] as? String, "http/1.1")
            let answers = try XCTUnwrap(result["answers"] as? [[Any]])
            XCTAssertEqual(answers.map { $0[1] as? Int }, [200, 200, 200, 200, 200])
            XCTAssertEqual(answers[0][3] as? String, "GET /one body=0:")
            XCTAssertEqual(answers[1][2] as? Int, 1 << 20)
            XCTAssertEqual(answers[1][3] as? Bool, true, "the 1 MiB body arrived changed")
            XCTAssertEqual(answers[2][3] as? String, "GET /p1 body=0:")
            XCTAssertEqual(answers[3][3] as? String, "GET /p2 body=0:")
            XCTAssertEqual(answers[4][3] as? String, "POST /upload body=900000:", "the upload arrived changed")
        }
    }

    func testTLS10And11AreRefusedAndTLS12IsModern() async throws {
        let capture = LogCapture()
        try await withServer(logger: capture.logger(level: .debug), tls: certificate.tls) { server in
            for version in ["-tls1", "-tls1_1"] {
                let (status, output) = try sClient(server, [version])
                XCTAssertNotEqual(status, 0, "\(version) handshake succeeded:\n\(output)")
                XCTAssertTrue(output.contains("alert protocol version"), "\(version) not refused by the server:\n\(output)")
            }
            // The server says why, at debug level, with the client's address.
            let failures = capture.lines.filter { $0.message.hasPrefix("TLS handshake failed") }
            XCTAssertEqual(failures.count, 2, capture.lines.map(\.fullText).joined(separator: "\n"))
            XCTAssertTrue(failures.allSatisfy { $0.message.contains("unsupported protocol") && $0.level == .debug }, "\(failures)")
            XCTAssertEqual(failures.first?.metadata["address"], "127.0.0.1")
            let (status, output) = try sClient(server, ["-tls1_2"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("Cipher is ECDHE-ECDSA-AES128-GCM-SHA256"), output)
            XCTAssertTrue(output.contains("Compression: NONE"), output)
        }
    }

    /// RFC 7301: a client that offers only protocols the server lacks gets the
    /// `no_application_protocol` alert; offering none at all is fine (s_client does by default).
    func testClientOfferingOnlyH2IsRefused() async throws {
        try await withServer(tls: certificate.tls) { server in
            let (refused, refusal) = try sClient(server, ["-alpn", "h2"])
            XCTAssertNotEqual(refused, 0, refusal)
            XCTAssertTrue(refusal.contains("no application protocol"), refusal)
            let (accepted, output) = try sClient(server, ["-alpn", "h2,http/1.1"])
            XCTAssertEqual(accepted, 0, output)
            XCTAssertTrue(output.contains("ALPN protocol: http/1.1"), output)
        }
    }

    func testStalledHandshakeIsClosedAfterTheHandshakeTimeout() async throws {
        var limits = HTTPServerLimits()
        limits.tlsHandshakeTimeout = .seconds(1)
        try await withServer(limits: limits, tls: certificate.tls) { server in
            let stalled = try RawConnection(server)  // connects, never sends a ClientHello
            let started = ContinuousClock.now
            XCTAssertTrue(stalled.isClosedByServer())
            let waited = ContinuousClock.now - started
            // Timeouts are checked once a second: closed after 1 s, before 2 s and a bit.
            XCTAssertGreaterThanOrEqual(waited, .milliseconds(900))
            XCTAssertLessThan(waited, .seconds(3))
            let closed = await eventually { server.openConnections == 0 }
            XCTAssertTrue(closed, "\(server.openConnections) connections still open")
            XCTAssertEqual(server.failedTLSHandshakes, 1, "a timed-out handshake counts as failed")
        }
    }

    func testGarbageInsteadOfAClientHelloClosesOnlyThatConnection() async throws {
        try await withServer(tls: certificate.tls) { server in
            let result = try python(TLSClientScripts.garbageBesideAClient, port: server.port)
            XCTAssertNotEqual(result["garbage"] as? String, "still open", "\(result)")
            XCTAssertLessThan(result["seconds"] as? Double ?? 99, 2, "\(result)")
            XCTAssertEqual(result["plaintext_reply"] as? Bool, false, "answered HTTP in plain text on the HTTPS port")
            let answers = try XCTUnwrap(result["answers"] as? [[Any]])
            XCTAssertEqual(answers.map { $0[3] as? String }, ["GET /before body=0:", "GET /after body=0:"])
            XCTAssertEqual(server.failedTLSHandshakes, 1, "the garbage, not the good client")
        }
    }

    func testBadRequestGetsItsAnswerAndACleanClose() async throws {
        try await withServer(tls: certificate.tls) { server in
            let result = try python(TLSClientScripts.badRequest, port: server.port)
            XCTAssertEqual(result["status"] as? Int, 400, "\(result)")
            XCTAssertTrue((result["body"] as? String)?.contains("\"error\":true") == true, "\(result)")
            XCTAssertEqual(result["ending"] as? String, "close_notify")
        }
    }
}
