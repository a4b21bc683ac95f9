import Foundation
import Mail
public import Web

/// How this server sends mail (issue 21): `SMTP_URL` and `MAIL_FROM`, or, without them, files
/// in `.mail/` outside production and nothing at all in production (where the routes that
/// must send answer 503 and `/ready` reports it, see `requireSending()`).
public struct MailSettings: Sendable, Equatable {
    public enum Delivery: Sendable, Equatable {
        /// Over SMTP, through libcurl.
        case smtp(SMTPEndpoint)
        /// Each message written to `directory` as an `.eml` file and logged: development and
        /// testing without `SMTP_URL`, so `make run` needs no mail server.
        case files(directory: String)
        /// Production without `SMTP_URL`: messages stay queued until one is configured.
        case notConfigured
    }

    public var delivery: Delivery
    /// `MAIL_FROM`: the From address of every message (required with `SMTP_URL`).
    public var from: String
    /// `SMTP_CA_FILE`: a PEM file of certificate authorities trusted besides the system's.
    public var caFile: String?
    /// `SMTP_TIMEOUT`: the most one message's SMTP conversation may take; a claimed message's
    /// lease is derived from it (`MailSender.lease`).
    public var timeout: Duration = .seconds(60)

    public init(delivery: Delivery, from: String = Self.developmentFrom, caFile: String? = nil) {
        self.delivery = delivery
        self.from = from
        self.caFile = caFile
    }

    /// What `/ready` says about mail: `smtp`, `files` or `not configured`.
    var readiness: String {
        switch delivery {
        case .smtp: "smtp"
        case .files: "files"
        case .notConfigured: "not configured"
        }
    }

    /// Where development and testing write messages without `SMTP_URL`.
    public static let developmentDirectory = ".mail"
    public static let developmentFrom = "TIL <no-reply@localhost>"

    public init(reader: ConfigReader, environment: Environment) throws(ConfigurationError) {
        let endpoint = try reader.value(.smtpURL) { text throws(SMTPEndpoint.Refusal) in try SMTPEndpoint(url: text) }
        let from = try reader.value(.mailFrom) { text throws(SMTPEndpoint.Refusal) in try Self.address(text) }
        caFile = try reader.value(.smtpCAFile) { path in Self.isPEMCertificates(path) ? path : nil }
        timeout = try reader.seconds(.smtpTimeout) ?? timeout
        if let endpoint {
            guard let from else { throw ConfigurationError("MAIL_FROM is required with SMTP_URL: the From address of every message.") }
            delivery = .smtp(endpoint)
            self.from = from
        } else {
            delivery = environment == .production ? .notConfigured : .files(directory: Self.developmentDirectory)
            self.from = from ?? Self.developmentFrom
        }
    }

    /// Throws the 503 of a route that must send mail now (a reset, a verification link) on a
    /// server that cannot: better said at once than a mail that never comes.
    func requireSending() throws(Abort) {
        if delivery == .notConfigured { throw Abort(.serviceUnavailable, reason: "Mail is not configured on this server.") }
    }

    /// `Name <address>` or a bare address, as the messages will carry it (`MailFrom`): one
    /// line, no control characters, one `@`.
    static func address(_ text: String) throws(SMTPEndpoint.Refusal) -> String {
        guard text.utf8.count <= 320, (try? MailFrom(parsing: text)) != nil else {
            throw SMTPEndpoint.Refusal("an address like no-reply@til.example or TIL <no-reply@til.example>")
        }
        return text
    }

    /// `MAIL_FROM` as messages carry it (checked when read, so this cannot fail after start-up).
    var sender: MailFrom {
        get throws(MailHeaderError) { try MailFrom(parsing: from) }
    }

    /// A readable file holding at least one PEM certificate (what libcurl will load as CAs):
    /// a wrong path or a key file stops the server at start, not at its first message.
    static func isPEMCertificates(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count < 10_000_000 else { return false }
        return String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
    }
}

/// `SMTP_URL`, read: where the relay is, how to log in, and how TLS must be used.
public struct SMTPEndpoint: Sendable, Equatable {
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?
    /// `smtps://`: TLS from the first byte.
    public let implicitTLS: Bool
    /// `smtp://` to any host but loopback must upgrade with STARTTLS or not send at all.
    public let requiresSTARTTLS: Bool

    /// The URL libcurl connects to: scheme, host and port, never the credentials.
    public var connectionURL: String {
        "\(implicitTLS ? "smtps" : "smtp")://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)"
    }

    init(url text: String) throws(Refusal) {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["smtp", "smtps"].contains(scheme),
              let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil
        else { throw Refusal("smtp://[user:password@]host[:port] or smtps://…, with no path or query") }
        self.host = host
        implicitTLS = scheme == "smtps"
        port = url.port ?? (implicitTLS ? 465 : 587)
        guard (1...65535).contains(port) else { throw Refusal("a port from 1 to 65535") }
        username = url.user?.removingPercentEncoding
        password = url.password?.removingPercentEncoding
        requiresSTARTTLS = !implicitTLS && !AppConfiguration.isLoopback(host)
    }

    /// The server as libcurl reaches it, with `settings`' CA file and timeout: the connect
    /// timeout is a sixth of the whole (10 s of the default 60), at least a second.
    func server(_ settings: MailSettings) -> SMTPServer {
        SMTPServer(
            url: connectionURL, username: username, password: password,
            security: implicitTLS ? .implicitTLS : requiresSTARTTLS ? .startTLSRequired : .startTLSWhenOffered,
            caFile: settings.caFile, connectTimeout: max(.seconds(1), settings.timeout / 6), timeout: settings.timeout)
    }
}
