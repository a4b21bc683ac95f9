import Web

/// `/api/users/me/mfa`: the caller's second factors, with a token holding `account`. TOTP is
/// enrolled in two steps (a secret, then a code from the app proving it has it, which turns it
/// on and answers the recovery codes once); turning it off and renewing the recovery codes
/// need the current password and a code or a recovery code. Starting and confirming an
/// enrolment prove nothing of their own, so they need a recent authentication
/// (`RecentAuthentication`); the others are one (`TOTPManagement.prove`).
struct SecondFactorsController: RouteCollection {
    let management: TOTPManagement
    let auth: BearerAuth
    let recentAuthentication: RecentAuthentication

    var secondFactors: SecondFactors { management.secondFactors }

    func boot(routes: any RoutesBuilder) throws {
        let mfa = auth.sessionGuarded(routes.grouped("api", "users", "me", "mfa"), needing: .account)
        mfa.get(use: status)
        mfa.post("totp", use: startEnrolment)
        mfa.post("totp", "confirm", use: confirm)
        mfa.delete("totp", use: disable)
        mfa.post("recovery-codes", use: regenerate)
    }

    func status(_ request: Request) async throws -> MFAStatus {
        try await secondFactors.status(of: try request.auth.require(BearerIdentity.self).user.id)
    }

    /// A new secret, pending until confirmed (replacing an older pending one); 409 while TOTP is on.
    func startEnrolment(_ request: Request) async throws -> Response {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        let enrolment = try await management.start(for: identity.user)
        return try ContentResponse(enrolment, status: .created).encodeResponse(for: request).notStored()
    }

    /// Turns TOTP on once a code of the pending secret checks out; the recovery codes, once.
    func confirm(_ request: Request) async throws -> Response {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        let code = try SecondFactorInput.code(try request.content.decode(TOTPConfirmation.self).code)
        let codes = try await management.confirm(code, for: identity.user, sessionID: identity.sessionID, request)
        return try ContentResponse(RecoveryCodes(recoveryCodes: codes), status: .ok).encodeResponse(for: request).notStored()
    }

    /// Turns TOTP off and drops the recovery codes. With TOTP on, needs the current password
    /// and a code or recovery code; a pending enrolment alone goes with the password.
    func disable(_ request: Request) async throws -> HTTPStatus {
        let identity = try await proven(request)
        try await management.turnOff(for: identity.user, sessionID: identity.sessionID, request)
        return .noContent
    }

    /// A new set of ten recovery codes in place of the old (used or not); needs TOTP on and the proof.
    func regenerate(_ request: Request) async throws -> Response {
        let identity = try await proven(request, needingTOTP: true)
        let codes = try await management.renewRecoveryCodes(for: identity.user, sessionID: identity.sessionID, request)
        return try ContentResponse(RecoveryCodes(recoveryCodes: codes), status: .ok).encodeResponse(for: request).notStored()
    }

    /// The caller, once the request's `SecondFactorProofRequest` holds (`TOTPManagement.prove`).
    private func proven(_ request: Request, needingTOTP: Bool = false) async throws -> BearerIdentity {
        let identity = try request.auth.require(BearerIdentity.self)
        let body = try request.content.decode(SecondFactorProofRequest.self)
        let proof = try SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        try await management.prove(
            password: body.currentPassword, proof, of: identity.user, sessionID: identity.sessionID, needingTOTP: needingTOTP, request)
        return identity
    }
}
