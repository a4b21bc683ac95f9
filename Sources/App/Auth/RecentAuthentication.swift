import Foundation
import Web

/// The rule in front of every sensitive change (the password, the second factors, passkeys,
/// and later the email and personal access tokens): the session's last authentication —
/// its sign-in, or a later `POST /api/users/me/reauth` — must be at most `REAUTH_WINDOW` old.
/// A stolen token, or a computer left signed in, then cannot take the account over without the
/// password (or a passkey).
///
/// The age comes with the token check itself (`TokenRepository.authenticate` reads
/// `sessions.auth_time` in the statement that finds the token), so the rule costs no round
/// trip. Too old, the API answers RFC 9470's step-up challenge (`ReauthenticationChallenge`);
/// the pages send the browser to a fresh sign-in that comes back (`freshSignIn`).
///
/// ```swift
/// try await recentAuthentication.require(identity, request)
/// ```
struct RecentAuthentication: Sendable {
    let window: Duration
    let audit: AuditLog

    /// The window in whole seconds: RFC 9470's `max_age`.
    var maxAge: Int { Int(window.components.seconds) }

    /// Throws the step-up challenge (401, audited `reauth.required`) unless `identity`'s
    /// session authenticated within the window. Async so that a check which must read the
    /// database later keeps every call site as it is.
    func require(_ identity: BearerIdentity, _ request: Request) async throws {
        guard !isRecent(identity.secondsSinceAuthentication) else { return }
        audit.record(.reauthRequired, request, userID: identity.user.id, sessionID: identity.sessionID)
        throw ReauthenticationChallenge(maxAge: maxAge)
    }

    /// True when an authentication `seconds` ago (nil: never) is within the window.
    func isRecent(_ seconds: Double?) -> Bool {
        guard let seconds else { return false }
        return seconds <= window.seconds
    }

    /// For a page's form: nil when `session` signed in within the window; else the redirect
    /// (303) to a fresh sign-in that comes back to `returnTo` (audited `reauth.required`).
    func freshSignIn(_ session: BrowserSession, returnTo: String, _ request: Request) -> Response? {
        guard !isRecent(session.secondsSinceAuthentication) else { return nil }
        audit.record(.reauthRequired, request, userID: session.user.id, sessionID: session.id)
        return PageResponse.redirect(to: signInPath(returnTo: returnTo))
    }

    /// For a page endpoint the passkeys script calls: throws the challenge with `next`, the
    /// fresh sign-in the script sends the browser to, unless `session` is recent.
    func require(_ session: BrowserSession, returnTo: String, _ request: Request) throws {
        guard !isRecent(session.secondsSinceAuthentication) else { return }
        audit.record(.reauthRequired, request, userID: session.user.id, sessionID: session.id)
        throw ReauthenticationChallenge(maxAge: maxAge, next: signInPath(returnTo: returnTo))
    }

    /// `/login?return_to=…&max_age=…`: the sign-in page, shown even to a signed-in browser
    /// whose sign-in is older than `max_age` (`LoginPagesController.showLogin`).
    func signInPath(returnTo: String) -> String {
        let encoded = returnTo.addingPercentEncoding(withAllowedCharacters: Self.allowed) ?? "/"
        return "/login?return_to=\(encoded)&max_age=\(maxAge)"
    }

    /// RFC 3986's unreserved characters and `/`: everything else of a query value is escaped.
    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
}
