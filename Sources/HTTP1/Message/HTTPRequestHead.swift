/// A parsed request line and header section.
public struct HTTPRequestHead: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request target as sent (origin form: path plus optional `?query`).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    public init(method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Whether the connection stays open after this request (RFC 9112 §9.3): HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        let tokens = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces().lowercased() }
        if version == .http1_0 { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    /// `Expect: 100-continue` was sent (HTTP/1.1 only).
    public var expectsContinue: Bool {
        version == .http1_1 && (headers["Expect"]?.trimmingSpaces().lowercased() == "100-continue")
    }
}
