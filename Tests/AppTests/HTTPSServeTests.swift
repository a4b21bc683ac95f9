import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// `til-server serve --tls-certificate --tls-key` (or `TLS_CERTIFICATE`/`TLS_KEY`) serves the
/// API over HTTPS; half a configuration or an unusable key stops it from starting, with the
/// reason. A real child process, checked with curl.
final class HTTPSServeTests: XCTestCase {
    private var certificate: SelfSignedCertificate!
    private var curl: ExternalTool!
    private var servers: [ServerProcess] = []

    override func setUp() async throws {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        guard let curl = ExternalTool("curl") else { throw XCTSkip("curl is not installed") }
        (self.certificate, self.curl) = (certificate, curl)
        // A fresh, migrated test database holding one acronym.
        try await withTestApp { app in _ = try await Acronym.create(short: "TLS", long: "Transport Layer Security", on: app) }
    }

    override func tearDown() async throws {
        for server in servers {
            if hasFailed { print("til-server :\(server.port) output:\n\(server.output)") }
            await server.stop()
        }
        servers = []
        certificate = nil
    }

    private func start(arguments: [String] = [], environment: [String: String] = [:]) throws -> ServerProcess {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(environment), arguments: arguments)
        servers.append(server)
        return server
    }

    /// `GET https://127.0.0.1:<port><path>` trusting only the test certificate: (status, body).
    private func get(_ path: String, from server: ServerProcess) throws -> (status: Int, body: String) {
        let (exit, output) = try curl.run([
            "--silent", "--cacert", certificate.certificateFile, "--write-out", "\n%{http_code}",
            "https://127.0.0.1:\(server.port)\(path)",
        ])
        let status = Int(output.split(separator: "\n").last ?? "") ?? 0
        return (exit == 0 ? status : 0, String(output.dropLast(String(status).count + 1)))
    }

    private func waitUntilHealthy(_ server: ServerProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline, server.process.isRunning {
            if try get("/health", from: server).status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("not healthy over HTTPS in time:\n\(server.output)")
    }

    func testServesTheAPIOverHTTPS() async throws {
        let server = try start(arguments: ["--tls-certificate", certificate.certificateFile, "--tls-key", certificate.privateKeyFile])
        try await waitUntilHealthy(server)
        XCTAssertTrue(server.output.contains("listening on https://127.0.0.1:\(server.port)"), server.output)
        let (status, body) = try get("/api/acronyms", from: server)
        XCTAssertEqual(status, 200, body)
        let acronyms = try JSONDecoder().decode([Acronym].self, from: Data(body.utf8))
        XCTAssertEqual(acronyms.map(\.short), ["TLS"])
        // Plain HTTP on the HTTPS port is not answered in plain text.
        let plain = try? await server.client.send(.get, "/health")
        XCTAssertNil(plain, "answered plain HTTP")
    }

    /// Failed handshakes are counted for operators: plain HTTP sent to the HTTPS port, and a
    /// client offering only `h2`, each add one to `tls_handshake_failures_total`.
    func testFailedHandshakesAreCountedInMetrics() async throws {
        let server = try start(arguments: ["--tls-certificate", certificate.certificateFile, "--tls-key", certificate.privateKeyFile])
        try await waitUntilHealthy(server)
        func failures() throws -> Double {
            let (status, body) = try get("/metrics", from: server)
            XCTAssertEqual(status, 200, body)
            return PrometheusText(body).value("tls_handshake_failures_total")
        }
        let before = try failures()
        _ = try? await server.client.send(.get, "/health")  // plain HTTP: not a ClientHello
        if let openssl = ExternalTool("openssl") {
            _ = try openssl.run(
                ["s_client", "-connect", "127.0.0.1:\(server.port)", "-alpn", "h2"], environment: ["OPENSSL_CONF": "/dev/null"], input: "")
        }
        let expected = before + (ExternalTool("openssl") == nil ? 1 : 2)
        let counted = await eventually(within: .seconds(5)) { (try? failures()) == expected }
        XCTAssertTrue(counted, "tls_handshake_failures_total is \(String(describing: try? failures())), expected \(expected)")
    }

    func testEnvironmentVariablesTurnHTTPSOn() async throws {
        let server = try start(environment: ["TLS_CERTIFICATE": certificate.certificateFile, "TLS_KEY": certificate.privateKeyFile])
        try await waitUntilHealthy(server)
    }

    func testHalfATLSConfigurationRefusesToStart() async throws {
        let server = try start(environment: ["TLS_CERTIFICATE": certificate.certificateFile])
        let status = await server.waitForExit()
        XCTAssertEqual(status, 78, server.output)
        XCTAssertTrue(server.output.contains("--tls-certificate (TLS_CERTIFICATE) and --tls-key (TLS_KEY) go together"), server.output)
    }

    func testKeyOfAnotherCertificateRefusesToStart() async throws {
        let otherKey = try certificate.makeUnrelatedKey()
        let server = try start(arguments: ["--tls-certificate", certificate.certificateFile, "--tls-key", otherKey])
        let status = await server.waitForExit()
        XCTAssertEqual(status, 78, server.output)
        XCTAssertTrue(server.output.contains("TLS key \(otherKey) does not match the certificate"), server.output)
    }
}
