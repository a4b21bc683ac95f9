import Crypt
import Web

/// The two cookies of TIL's pages and how they are set: the browser session's, and the
/// short-lived pre-login one that a login form's CSRF token is bound to. Both `Secure` with the
/// `__Host-` prefix whenever the issuer is https (TLS usually ends at a proxy, so what counts
/// is the public URL, not how this process is reached).
struct BrowserCookies: Sendable {
    let secure: Bool

    /// How long a login form stays usable.
    static let preLoginLifetime = 1800

    var sessionName: String { SetCookie.hostPrefixed("til_session", secure: secure) }
    var preLoginName: String { SetCookie.hostPrefixed("til_login", secure: secure) }

    func session(_ session: BrowserSession) -> SetCookie {
        SetCookie(name: sessionName, value: session.cookieValue, maxAge: session.secondsLeft, secure: secure)
    }

    var removingSession: SetCookie { .removing(sessionName, secure: secure) }
    var removingPreLogin: SetCookie { .removing(preLoginName, secure: secure) }

    /// The request's pre-login secret, or a new one; and the cookie that (re)sets it.
    func preLogin(for request: Request) -> (secret: String, cookie: SetCookie) {
        let sent = request.cookie(preLoginName).flatMap { value in
            value.utf8.count == 43 && Base64URL.decode(value)?.count == 32 ? value : nil
        }
        let secret = sent ?? SecureRandom.token()
        return (secret, SetCookie(name: preLoginName, value: secret, maxAge: Self.preLoginLifetime, secure: secure))
    }
}
