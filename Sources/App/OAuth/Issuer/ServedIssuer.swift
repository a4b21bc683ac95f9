import Synchronization

/// The issuer a running server answers with: `ISSUER` when set, else the loopback address it
/// serves (`http://127.0.0.1:8080`, https under TLS). Given `--port 0`, the port is known only
/// once bound, so a derived issuer takes the bound port then (`bind(port:)`); a configured one
/// never changes. A lock-guarded box read once per OAuth request.
public final class ServedIssuer: Sendable {
    private let state: Mutex<Issuer>
    /// True when derived from the address served: the bound port may still change it.
    private let isDerived: Bool

    /// `configured` when set; else derived from where the server listens. A non-loopback
    /// address without `ISSUER` (allowed outside production, `AppConfiguration.checkIssuer`)
    /// gets `localhost`, never the bind address.
    public init(configured: Issuer?, host: String, port: Int, tls: Bool) {
        if let configured {
            state = Mutex(configured)
            isDerived = false
        } else {
            let host = Issuer.isLoopback(host) ? host : "localhost"
            // `served` cannot fail on a loopback host and a number.
            let derived = Issuer.served(host: host, port: port, tls: tls) ?? Issuer.served(host: "127.0.0.1", port: port, tls: tls)!
            state = Mutex(derived)
            isDerived = true
        }
    }

    public var current: Issuer { state.withLock { $0 } }

    /// Completes a derived issuer with the port the server bound.
    public func bind(port: Int) {
        guard isDerived else { return }
        state.withLock { issuer in
            let host = issuer.host
            if let bound = Issuer.served(host: host, port: port, tls: issuer.isHTTPS) { issuer = bound }
        }
    }
}
