/// What can go wrong talking to TIL, typed so a caller can act on it.
public enum TILError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No usable credentials: never logged in, logged out, or the session ended (its refresh
    /// was refused — the stored credentials are cleared). Log in again.
    case notAuthenticated(String)
    /// The server refused: its status, its `reason`, and the `error` of its
    /// `WWW-Authenticate` challenge when it sent one (`insufficient_scope`, ...).
    case server(status: Int, reason: String, authenticateError: String?)
    /// The server could not be reached, or the connection broke.
    case transport(String)
    /// The server answered something this client cannot read.
    case invalidResponse(String)
    /// The caller asked for something that cannot be sent (a limit out of range, a bad URL).
    case invalidArgument(String)
    /// The server answered a redirect (its status and `Location`). TIL's API never redirects,
    /// so the client does not follow one: a redirect would carry the request's credentials to
    /// wherever it points. Point the client at the right URL instead.
    case redirected(status: Int, location: String)
    /// A browser sign-in did not complete. `error` is the server's code when it refused
    /// (`access_denied`, `invalid_scope`, ... RFC 6749 §4.1.2.1), `invalid_callback` for an
    /// answer that is not this sign-in's (another `state` or issuer, no code), or
    /// `invalid_id_token`; `reason` says what happened, in words.
    case signInFailed(error: String, reason: String)
    /// The password was right, but the account has a second factor: no token yet. Finish the
    /// login with `APIClient.completeSecondFactor(challenge, code:)` (or `recoveryCode:`).
    case secondFactorRequired(SecondFactorChallenge)
    /// The token is fine, but the change needs a recent sign-in (RFC 9470): call
    /// `account.reauthenticate(password:proof:)` (with a code when `need.methods` is not empty)
    /// and send the request again — or set `Configuration.reauthenticate` to have it done.
    case reauthenticationRequired(ReauthenticationNeed)
    /// The request was sent with a personal access token, and it needs a login (the server's
    /// 403 "needs a login, not a personal access token", or a route known to need one).
    case needsLogin

    /// The HTTP status, for errors that have one.
    public var status: Int? {
        switch self {
        case .server(let status, _, _): status
        case .secondFactorRequired: 401
        case .reauthenticationRequired(let need): need.needsSecondFactor ? 403 : 401
        case .needsLogin: 403
        default: nil
        }
    }

    /// One line for a person.
    public var description: String {
        switch self {
        case .notAuthenticated(let reason): "not authenticated: \(reason)"
        case .server(let status, let reason, _): "\(status): \(reason)"
        case .transport(let reason): "cannot reach the server: \(reason)"
        case .invalidResponse(let reason): "unexpected answer: \(reason)"
        case .invalidArgument(let reason): reason
        case .redirected(let status, let location):
            "the server redirected (\(status)) to \(location); TIL's API never redirects, so it was not followed: use the right server URL"
        case .signInFailed(let error, let reason): "sign-in failed (\(error)): \(reason)"
        case .secondFactorRequired(let challenge): challenge.description
        case .reauthenticationRequired(let need): need.description
        case .needsLogin: PersonalAccessToken.needsLoginReason
        }
    }
}
