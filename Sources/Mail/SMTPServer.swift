/// Where the SMTP server is and how the connection to it must be protected: what `SMTP_URL`
/// and `SMTP_CA_FILE` say, checked.
public struct SMTPServer: Sendable, Equatable {
    /// How TLS protects the connection. Certificate and host name are always verified.
    public enum Security: Sendable, Equatable {
        /// `smtps://`: TLS from the first byte (RFC 8314, port 465).
        case implicitTLS
        /// `smtp://` to any other host: STARTTLS or nothing is sent.
        case startTLSRequired
        /// `smtp://` to a loopback host: STARTTLS when the server offers it (verified like any
        /// other), plain otherwise. Only a relay on this machine, which nothing on the network sees.
        case startTLSWhenOffered
    }

    /// `smtp://host:port` or `smtps://host:port`: no credentials in it (they go to libcurl as
    /// options, so no log of a URL ever holds them); an IPv6 literal in brackets.
    public var url: String
    public var username: String?
    public var password: String?
    public var security: Security
    /// `SMTP_CA_FILE`: a PEM bundle trusted besides the system's CAs.
    public var caFile: String?
    /// Most time to connect (and finish a TLS handshake).
    public var connectTimeout: Duration
    /// Most time for one whole message, connection included: past it the attempt fails.
    public var timeout: Duration

    public init(
        url: String, username: String? = nil, password: String? = nil, security: Security, caFile: String? = nil,
        connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60)
    ) {
        self.url = url
        self.username = username
        self.password = password
        self.security = security
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }
}
