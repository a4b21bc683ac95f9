/// Where OpenID Connect's endpoints live, below the issuer (beside `OAuthEndpoints`).
enum OpenIDEndpoints {
    static let userInfo = "/oauth/userinfo"
    /// Served by the signing keys (RFC 7517).
    static let jwks = "/oauth/jwks"
    /// RP-initiated logout 1.0.
    static let endSession = "/oauth/logout"
    /// Discovery 1.0 §4.
    static let configuration = "/.well-known/openid-configuration"
}
