/// The body of `POST /api/users/me/reauth`: the password, and with TOTP on a code or a recovery
/// code as well (a passkey's assertion, `passkey`, is the other way; TILClient does not send it).
public struct ReauthenticationRequest: Codable, Sendable, Hashable {
    public var password: String?
    public var code: String?
    public var recoveryCode: String?

    public init(password: String, code: String? = nil, recoveryCode: String? = nil) {
        (self.password, self.code, self.recoveryCode) = (password, code, recoveryCode)
    }
}

/// The body of RFC 9470's step-up challenge (401 with `WWW-Authenticate: Bearer
/// error="insufficient_user_authentication", max_age="…"`): a sensitive change needs a session
/// whose last authentication is at most `maxAge` seconds old. API clients call
/// `POST /api/users/me/reauth` and retry; TIL's pages answer it with `next`, the sign-in page
/// that returns to where the person was.
public struct ReauthenticationRequired: Codable, Sendable, Hashable {
    public var error = true
    public var reason: String
    public var reauthRequired = true
    public var maxAge: Int
    public var next: String?

    public init(reason: String, maxAge: Int, next: String? = nil) {
        (self.reason, self.maxAge, self.next) = (reason, maxAge, next)
    }
}

/// The 403 of `POST /api/users/me/reauth` when the password was right but the account has TOTP
/// on and no second factor came with it: send the password again with `code`, `recoveryCode`
/// or a `passkey` (one of `methods`). Unlike a login's `MFARequired` it carries no mfaToken:
/// the session itself binds the two.
public struct ReauthenticationFactorRequired: Codable, Sendable, Hashable {
    public var error = true
    public var reason: String
    public var mfaRequired = true
    /// `totp`, `recovery_code`, `passkey`: whichever the user has.
    public var methods: [String]

    public init(reason: String, methods: [String]) {
        (self.reason, self.methods) = (reason, methods)
    }
}
