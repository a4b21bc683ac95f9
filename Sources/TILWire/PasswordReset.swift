/// The wire shapes of a password reset by mail (issue 21). The request never says whether an
/// account exists; the confirmation carries the token the mail's link holds, and, for an
/// account with a second factor, the mfaToken its first answer gave and one proof.

/// The body of `POST /api/users/password-reset`: a username or an email address.
public struct PasswordResetRequest: Codable, Sendable, Hashable {
    public var login: String

    public init(login: String) { self.login = login }
}

/// The 202 of `POST /api/users/password-reset`: the same for every login, known or not.
public struct PasswordResetAccepted: Codable, Sendable, Hashable {
    public var status = "accepted"
    public var message: String

    public init(message: String) { self.message = message }
}

/// The body of `POST /api/users/password-reset/confirm`. First `token` and `newPassword`;
/// for an account with a second factor that answers 401 `MFARequired`, and the second call
/// adds `mfaToken` and `code` or `recoveryCode` (`newPassword` may then be left out: the
/// first call's stands).
public struct PasswordResetConfirmation: Codable, Sendable, Hashable {
    public var token: String
    public var newPassword: String?
    public var mfaToken: String?
    public var code: String?
    public var recoveryCode: String?

    public init(token: String, newPassword: String?, mfaToken: String? = nil, code: String? = nil, recoveryCode: String? = nil) {
        (self.token, self.newPassword, self.mfaToken) = (token, newPassword, mfaToken)
        (self.code, self.recoveryCode) = (code, recoveryCode)
    }
}
