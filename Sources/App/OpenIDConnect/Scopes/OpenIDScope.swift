/// The scopes of OpenID Connect Core §5.4 and §11 that TIL grants beside its API's: `openid`
/// (the request is an OpenID Connect one: the token answer carries an `id_token`), `profile`
/// (`name` and `preferred_username`), `email` (`email` and `email_verified`, the account's
/// verified address only) and `offline_access` (a refresh token, whatever the client's
/// `grant_types` say). They are about the user, not an API, so they ride along with
/// TIL's own audience.
enum OpenIDScope: String, Sendable, CaseIterable {
    case openid
    case profile
    case email
    case offlineAccess = "offline_access"

    /// Their words on the consent page.
    var words: String {
        switch self {
        case .openid: "Sign you in with your TIL account and know its id"
        case .profile: "See your name and username"
        case .email: "See your email address"
        case .offlineAccess: "Stay connected to your account while you are away"
        }
    }

    /// Every name, in canonical order.
    static let names = allCases.map(\.rawValue)
}
