import Foundation
public import Web

/// A throwaway certificate for `127.0.0.1` and `localhost` (P-256, valid for a day) and its
/// key, made by the `openssl` command in a temporary directory that is removed with this value.
/// Clients trust it as their only CA (`curl --cacert`, Python's `cafile`).
public final class SelfSignedCertificate {
    private let directory: URL
    private let openssl: ExternalTool
    public var certificateFile: String { directory.appendingPathComponent("cert.pem").path }
    public var privateKeyFile: String { directory.appendingPathComponent("key.pem").path }
    public var tls: TLSConfiguration { TLSConfiguration(certificateFile: certificateFile, privateKeyFile: privateKeyFile) }

    /// Nil when `openssl` is not installed; throws when it fails.
    public init?() throws {
        guard let openssl = ExternalTool("openssl") else { return nil }
        self.openssl = openssl
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("til-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.generate(with: openssl, certificate: certificateFile, key: privateKeyFile)
    }

    /// Another key of the same kind, not matching this certificate (for start-up checks); its path.
    public func makeUnrelatedKey() throws -> String {
        let path = directory.appendingPathComponent("other-key.pem").path
        let (status, output) = try openssl.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
        guard status == 0 else { throw CertificateError(output) }
        return path
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private static func generate(with openssl: ExternalTool, certificate: String, key: String) throws {
        let (status, output) = try openssl.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", key, "-out", certificate,
        ])
        guard status == 0 else { throw CertificateError(output) }
    }

    public struct CertificateError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
