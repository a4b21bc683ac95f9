/// The wire shapes of second factors (issue 20): TOTP enrolment, recovery codes, the login's
/// second step. Codes are never stored by the server as sent: TOTP codes are checked and
/// forgotten, recovery codes are kept only as digests.

/// The 401 body of `POST /api/users/login` for a user with TOTP on: the usual error fields
/// plus the single-use `mfaToken` (5 minutes) that `POST /api/users/login/mfa` completes.
public struct MFARequired: Codable, Sendable, Hashable {
    public var error = true
    public var reason: String
    public var mfaRequired = true
    public var mfaToken: String
    /// `totp`, `recovery_code`, `passkey`: whichever the user has.
    public var methods: [String]

    public init(reason: String = "A second factor is required.", mfaToken: String, methods: [String]) {
        self.reason = reason
        self.mfaToken = mfaToken
        self.methods = methods
    }
}

/// The body of `POST /api/users/login/mfa`: the mfaToken and one proof.
public struct MFALoginRequest: Codable, Sendable, Hashable {
    public var mfaToken: String
    public var code: String?
    public var recoveryCode: String?

    public init(mfaToken: String, code: String? = nil, recoveryCode: String? = nil) {
        (self.mfaToken, self.code, self.recoveryCode) = (mfaToken, code, recoveryCode)
    }
}

/// The answer of `POST /api/users/me/mfa/totp` (201): what an authenticator app needs, once.
public struct TOTPEnrolment: Codable, Sendable, Hashable {
    /// The 160-bit secret in base32, for typing in.
    public var secret: String
    /// `otpauth://totp/TIL:<username>?secret=…&issuer=TIL`.
    public var otpauthURI: String
    /// The URI as a QR code, a small standalone SVG.
    public var qrCodeSVG: String

    public init(secret: String, otpauthURI: String, qrCodeSVG: String) {
        (self.secret, self.otpauthURI, self.qrCodeSVG) = (secret, otpauthURI, qrCodeSVG)
    }
}

/// The body of `POST /api/users/me/mfa/totp/confirm`.
public struct TOTPConfirmation: Codable, Sendable, Hashable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// The proof `DELETE /api/users/me/mfa/totp` and `POST /api/users/me/mfa/recovery-codes` need:
/// the current password and a TOTP code or a recovery code.
public struct SecondFactorProofRequest: Codable, Sendable, Hashable {
    public var currentPassword: String
    public var code: String?
    public var recoveryCode: String?

    public init(currentPassword: String, code: String? = nil, recoveryCode: String? = nil) {
        (self.currentPassword, self.code, self.recoveryCode) = (currentPassword, code, recoveryCode)
    }
}

/// A new set of recovery codes, shown once (confirmation, regeneration).
public struct RecoveryCodes: Codable, Sendable, Hashable {
    public var recoveryCodes: [String]

    public init(recoveryCodes: [String]) { self.recoveryCodes = recoveryCodes }
}

/// `GET /api/users/me/mfa`: what second factors the caller has, never a secret.
public struct MFAStatus: Codable, Sendable, Hashable {
    public var totp: Bool
    public var recoveryCodesRemaining: Int
    public var passkeys: Int

    public init(totp: Bool, recoveryCodesRemaining: Int, passkeys: Int) {
        (self.totp, self.recoveryCodesRemaining, self.passkeys) = (totp, recoveryCodesRemaining, passkeys)
    }
}
