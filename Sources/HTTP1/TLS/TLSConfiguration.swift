/// Serve HTTPS instead of HTTP: a PEM certificate chain (the server's certificate first, then
/// its intermediates) and the PEM private key that matches it.
///
/// TLS 1.2 and 1.3 only, forward-secret AEAD cipher suites, ALPN `http/1.1` (see `TLSContext`).
/// Most deployments end TLS at a proxy in front of the server and leave this unset.
public struct TLSConfiguration: Sendable, Equatable {
    public var certificateFile: String
    public var privateKeyFile: String

    public init(certificateFile: String, privateKeyFile: String) {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
    }

    /// Loads both files as the server will and throws what is wrong with them (unreadable,
    /// not PEM, key not matching the certificate): lets a command refuse to start before it
    /// does anything else.
    public func validate() throws(TLSSetupError) {
        _ = try TLSContext(self)
    }
}
