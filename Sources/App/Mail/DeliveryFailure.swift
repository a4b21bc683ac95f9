import Mail

/// Why a message did not go out, sorted by what the sender does next: retry this message
/// later, give it up, or stop the pass because the server (not the message) is the problem.
struct DeliveryFailure: Error, Sendable, Equatable {
    enum Scope: Sendable, Equatable {
        /// Only this message: the next one may go through (a refused recipient, a 451 to its data).
        case message
        /// Every message would fail the same way now (no connection, TLS, login, a refused
        /// sender, a 421): the pass ends and its other messages wait for the next one.
        case server
        /// The sender is stopping: the message is handed back untouched.
        case cancelled
    }

    let scope: Scope
    /// The server said no for good (5xx, RFC 5321 §4.2.1), or the message cannot be written:
    /// sending it again would get the same answer, so it is given up.
    let permanent: Bool
    /// For the log and `last_error`: libcurl's words and the reply code, never a credential
    /// or the message's content.
    let detail: String

    init(scope: Scope, permanent: Bool = false, detail: String) {
        self.scope = scope
        self.permanent = permanent
        self.detail = String(detail.prefix(500))
    }

    init(_ error: SMTPError) {
        switch error.kind {
        case .unsendable:
            self.init(scope: .message, permanent: true, detail: error.description)
        case .refused(.recipient), .refused(.message):
            // 421: the server is closing the connection, whatever the message.
            self.init(scope: error.reply == 421 ? .server : .message, permanent: error.isPermanent, detail: error.description)
        case .cancelled:
            self.init(scope: .cancelled, detail: error.description)
        case .refused(.sender), .connect, .tls, .authentication, .timeout, .other:
            self.init(scope: .server, detail: error.description)
        }
    }
}
