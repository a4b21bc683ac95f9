/// How a login was obtained: what `til status` reports, and (with `Credential.oauthClientID`)
/// where its refresh token is spent.
public enum SignInMethod: String, Codable, Sendable {
    /// A username and password sent here (`POST /api/users/login`).
    case password
    /// A one-time code approved in a browser anywhere (RFC 8628, `til login --web`).
    case device
    /// The authorization-code flow in a browser on this machine, the answer caught on a
    /// loopback or app redirect (RFC 8252, `til login --browser`, `beginBrowserSignIn`).
    case browser
}
