import Web

extension TIL {
    /// The rule every sensitive route checks first: a session authenticated within
    /// `REAUTH_WINDOW` (RFC 9470). A controller holds one and calls
    /// `try await recentAuthentication.require(identity, request)`.
    var recentAuthentication: RecentAuthentication {
        RecentAuthentication(window: configuration.auth.reauthWindow, audit: AuditLog(logger: logger))
    }

    /// `POST /api/users/me/reauth`.
    func configureReauthentication(_ app: Application, proofs: AccountChangeProof, auth: BearerAuth, audit: AuditLog) throws {
        try app.register(collection: ReauthenticationController(
            reauthentication: Reauthentication(proofs: proofs, audit: audit), auth: auth))
    }
}
