public import Foundation

/// One live login as `GET /api/users/me/sessions` lists it. Never a token or a digest: a
/// session is ended by its id (`DELETE /api/users/me/sessions/:sessionID`).
public struct SessionInfo: Codable, Sendable, Hashable {
    public var id: UUID
    @WireDate public var createdAt: Date
    @WireDate public var lastUsedAt: Date
    /// When the newest access token of this login expires.
    @WireDate public var expiresAt: Date
    /// When the login ends unless refreshed before.
    @WireDate public var refreshExpiresAt: Date
    public var userAgent: String?
    /// What its tokens may do; scopes this version does not know are kept.
    public var scopes: [Scope]
    /// True for the session whose token made this request.
    public var current: Bool
    /// How it began: `login` (HTTP Basic), `browser` (TIL's sign-in page) or `oauth` (a client's
    /// grant). Nil from a server older than issue 18.
    public var kind: String?
    /// The OAuth client's name, for an `oauth` session.
    public var clientName: String?
    /// How the login was proven (RFC 8176): `["pwd"]`, `["pwd","otp","mfa"]`… Nil from a
    /// server older than issue 20.
    public var amr: [String]?
    /// When its user last proved who they are (the sign-in, or a later re-authentication): a
    /// sensitive change needs this within `REAUTH_WINDOW`. Nil for a session no person signed
    /// in to, and from a server older than issue 21.
    @OptionalWireDate public var authTime: Date?

    public init(
        id: UUID, createdAt: Date, lastUsedAt: Date, expiresAt: Date, refreshExpiresAt: Date, userAgent: String?,
        scopes: [Scope], current: Bool, kind: String? = nil, clientName: String? = nil, amr: [String]? = nil, authTime: Date? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.userAgent = userAgent
        self.scopes = scopes
        self.current = current
        self.kind = kind
        self.clientName = clientName
        self.amr = amr
        self.authTime = authTime
    }
}

/// The body of `PUT /api/users/me/password`.
public struct PasswordChangeRequest: Codable, Sendable, Hashable {
    public var currentPassword: String
    public var newPassword: String
    /// A TOTP code or a recovery code: required while TOTP is on.
    public var code: String?
    public var recoveryCode: String?

    public init(currentPassword: String, newPassword: String, code: String? = nil, recoveryCode: String? = nil) {
        (self.currentPassword, self.newPassword) = (currentPassword, newPassword)
        (self.code, self.recoveryCode) = (code, recoveryCode)
    }
}
