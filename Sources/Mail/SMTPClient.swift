import CCurl
import Foundation
import Glibc
import Synchronization

/// Sends messages to one SMTP server through libcurl: a maintained SMTP client (STARTTLS,
/// AUTH, dot-stuffing, timeouts, certificate checks) instead of a hand-written one.
///
/// `send` blocks its thread for as long as the conversation lasts (at most about twice
/// `server.timeout`: the transfer, then libcurl's wait for the last reply, each bounded by
/// it): call it from a thread made for waiting, never from an event loop.
///
/// Sendable without `@unchecked`: its one mutable part, the libcurl handle, lives inside
/// `connection`'s mutex, so no two threads ever touch the handle at once (libcurl's rule).
public final class SMTPClient: Sendable {
    public let server: SMTPServer
    /// The handle kept between messages (libcurl reuses its connection); nil until the first
    /// message and after a failed conversation.
    private let connection = Mutex<CurlEasy?>(nil)
    private let watch = ConnectionWatch()

    /// Ignores SIGPIPE process-wide, as `HTTPServer` does: with `CURLOPT_NOSIGNAL` (a must in a
    /// threaded server) libcurl leaves it alone, and OpenSSL writing to a socket the relay
    /// closed would otherwise end the process.
    public init(server: SMTPServer) {
        self.server = server
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ends the conversation under way at once (it fails with `.cancelled`; the server may or
    /// may not keep that message) and refuses every later one: for a server shutting down.
    public func abort() {
        watch.abort()
    }

    /// Delivers `message` and returns once the server answered 250 to its end of data: only
    /// then is it the server's. Anything else throws `SMTPError`, and the message may be sent
    /// again later (same bytes, same Message-ID).
    public func send(_ message: MailMessage) throws(SMTPError) {
        let bytes: [UInt8]
        do {
            bytes = try message.rendered()
        } catch {
            throw SMTPError(kind: .unsendable, detail: error.description)
        }
        guard !watch.isAborted else { throw SMTPError(kind: .cancelled, detail: "the SMTP client was stopped") }
        let result = try connection.withLock { kept throws(SMTPError) in
            let easy: CurlEasy
            if let existing = kept {
                easy = existing
            } else {
                easy = try CurlEasy(watch: watch)
                kept = easy
            }
            configure(easy, from: message.from.address)
            let result = easy.perform(uploading: bytes, recipients: ["<\(message.to.address)>"])
            // A failed conversation may leave its connection in any state: start clean.
            if result.code != CURLE_OK { kept = nil }
            return result
        }
        guard result.code != CURLE_OK else { return }
        let reply = result.reply > 0 ? result.reply : nil
        throw SMTPError(kind: kind(of: result.code, reply: reply, detail: result.message), reply: reply, detail: result.message)
    }

    private func configure(_ easy: CurlEasy, from sender: MailAddress) {
        easy.set(CURLOPT_URL, server.url)
        easy.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        easy.set(CURLOPT_NOSIGNAL, 1)  // timeouts without SIGALRM: this runs on a thread of a server
        easy.set(CURLOPT_UPLOAD, 1)
        easy.set(CURLOPT_MAIL_FROM, "<\(sender.address)>")
        easy.set(CURLOPT_USERNAME, server.username)
        easy.set(CURLOPT_PASSWORD, server.password)
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(server.connectTimeout.milliseconds))
        easy.set(CURLOPT_TIMEOUT_MS, Int(server.timeout.milliseconds))
        // libcurl waits for the reply to the end of data outside the transfer's timeout: bound it too.
        easy.set(CURLOPT_SERVER_RESPONSE_TIMEOUT, max(1, Int(server.timeout.components.seconds)))
        let useTLS = server.security == .startTLSWhenOffered ? CURLUSESSL_TRY : CURLUSESSL_ALL
        easy.set(CURLOPT_USE_SSL, Int(useTLS.rawValue))
        easy.set(CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2)
        easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = server.caFile {
            // CAINFO replaces the default bundle; the system's directory of CAs stays trusted.
            easy.set(CURLOPT_CAINFO, caFile)
            if FileManager.default.fileExists(atPath: Self.systemCADirectory) { easy.set(CURLOPT_CAPATH, Self.systemCADirectory) }
        }
    }

    /// Debian's (and most distributions') hashed directory of trusted CAs.
    static let systemCADirectory = "/etc/ssl/certs"

    /// What went wrong, from libcurl's code; for a refusal, which command was refused, from
    /// libcurl's message ("MAIL failed: 553", "RCPT failed: 550"; the end of data has none).
    private func kind(of code: CURLcode, reply: Int?, detail: String) -> SMTPError.Kind {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .connect
        case CURLE_USE_SSL_FAILED, CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .tls
        case CURLE_LOGIN_DENIED: return .authentication
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        default:
            if watch.isAborted { return .cancelled }  // its sockets were shut down under it
            guard let reply, reply >= 400 else { return .other }
            if detail.hasPrefix("MAIL") { return .refused(.sender) }
            if detail.hasPrefix("RCPT") { return .refused(.recipient) }
            return .refused(.message)
        }
    }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
