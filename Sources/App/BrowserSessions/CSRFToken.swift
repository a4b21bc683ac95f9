import Crypt
import Web

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

    /// The one check every form post of TIL's makes first: `fields` carry the token of `secret`
    /// (the cookie the form is bound to), else the 403 page. The secret, proven present.
    @discardableResult
    static func check(_ fields: FormFields, boundTo secret: String?) throws -> String {
        guard isValid(try fields.single("csrf_token"), boundTo: secret), let secret else { throw refusal }
        return secret
    }

    /// A form posted without the token of the page TIL showed: forged elsewhere, or stale.
    static let refusal = Abort(
        .forbidden, reason: "This form has expired or did not come from TIL's page. Go back, reload the page and try again.")
}

extension BrowserSession {
    /// The token of the forms shown to this session (consent, sign-out).
    var csrfToken: String { CSRFToken.token(boundTo: cookieValue) }
}
