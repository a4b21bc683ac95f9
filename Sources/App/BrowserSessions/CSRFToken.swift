import Crypt

/// The token every form of TIL's carries in `csrf_token`, bound to a secret only the browser
/// holds in an HttpOnly cookie: the pre-login cookie before a login, the browser session's
/// cookie after it. The token is a digest of that secret under a label of its own, so a page
/// that shows it reveals nothing of the cookie (and it is never the session's stored
/// `browser_digest`). A cross-site page can make the browser post, with the cookie, but cannot
/// read the token; `SameSite=Lax` keeps the cookie off cross-site posts besides.
enum CSRFToken {
    static func token(boundTo secret: String) -> String {
        SHA256.hex(of: "til-csrf\u{0}" + secret)
    }

    /// True when `sent` is the token of `secret`; compared in constant time.
    static func isValid(_ sent: String?, boundTo secret: String?) -> Bool {
        guard let sent, let secret, !secret.isEmpty, sent.utf8.count == 64 else { return false }
        return ConstantTime.equals(sent, token(boundTo: secret))
    }
}
