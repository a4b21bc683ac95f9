import HTTP1
import Logging
import WebTesting
import XCTest

/// A certificate or key the server cannot use stops it from starting, with a message that
/// names the file and the problem.
final class TLSSetupTests: XCTestCase {
    private func makeCertificate() throws -> SelfSignedCertificate {
        guard let certificate = try SelfSignedCertificate() else { throw XCTSkip("openssl is not installed") }
        return certificate
    }

    private func setupError(_ tls: TLSConfiguration) -> String? {
        do {
            try tls.validate()
            return nil
        } catch {
            return error.description
        }
    }

    func testGeneratedCertificateAndKeyAreAccepted() throws {
        let certificate = try makeCertificate()
        XCTAssertNil(setupError(certificate.tls))
    }

    func testMissingFileIsNamed() throws {
        let certificate = try makeCertificate()
        let error = setupError(TLSConfiguration(certificateFile: "/nonexistent/cert.pem", privateKeyFile: certificate.privateKeyFile))
        XCTAssertEqual(error, "cannot read TLS certificate /nonexistent/cert.pem: No such file or directory")
    }

    func testFileThatIsNotPEMIsRefused() throws {
        let certificate = try makeCertificate()
        let error = setupError(TLSConfiguration(certificateFile: certificate.certificateFile, privateKeyFile: "/etc/hostname"))
        XCTAssertTrue(error?.hasPrefix("TLS key /etc/hostname is not a usable PEM private key") == true, error ?? "accepted")
    }

    func testKeyOfAnotherCertificateIsRefused() throws {
        let certificate = try makeCertificate()
        let otherKey = try certificate.makeUnrelatedKey()
        let error = setupError(TLSConfiguration(certificateFile: certificate.certificateFile, privateKeyFile: otherKey))
        XCTAssertTrue(error?.hasPrefix("TLS key \(otherKey) does not match the certificate") == true, error ?? "accepted")
    }

    func testServerDoesNotStartWithAnUnusableKey() throws {
        let certificate = try makeCertificate()
        let tls = TLSConfiguration(certificateFile: certificate.certificateFile, privateKeyFile: "/nonexistent/key.pem")
        let server = HTTPServer(configuration: .init(port: 0, tls: tls), responder: EchoResponder(), logger: .init(label: "test"))
        XCTAssertThrowsError(try server.start()) { XCTAssertTrue($0 is TLSSetupError, "\($0)") }
        XCTAssertEqual(server.port, 0, "bound although it cannot serve")
    }
}
