import Foundation

/// The second step of a password login for an account with TOTP on.
extension APIClient {
    /// `POST /api/users/login/mfa`: finishes the login `challenge` began (`login` threw
    /// `TILError.secondFactorRequired`) with a code or a recovery code, and keeps the token pair
    /// exactly as `login` does. After a recovery code, the answer's `recoveryCodesRemaining`
    /// says how many are left. A wrong code is a 401 `TILError.server` and the challenge may be
    /// tried again, until its fifth wrong code or its five minutes end it.
    @discardableResult
    public func completeSecondFactor(_ challenge: SecondFactorChallenge, with answer: SecondFactorCode) async throws -> Token {
        let body = MFALoginRequest(mfaToken: challenge.mfaToken, code: answer.code, recoveryCode: answer.recoveryCode)
        var request = try APIRequest("POST", "/api/users/login/mfa", json: body)
        request.credentialOrigins = challenge.origin.map { [$0] } ?? []
        return try await keepLogin(Self.issued(from: try await send(request)), username: challenge.username)
    }

    /// `completeSecondFactor` with the authenticator app's code.
    @discardableResult
    public func completeSecondFactor(_ challenge: SecondFactorChallenge, code: String) async throws -> Token {
        try await completeSecondFactor(challenge, with: .totp(code))
    }

    /// `completeSecondFactor` with a recovery code, which is used up.
    @discardableResult
    public func completeSecondFactor(_ challenge: SecondFactorChallenge, recoveryCode: String) async throws -> Token {
        try await completeSecondFactor(challenge, with: .recoveryCode(recoveryCode))
    }

    /// Keeps the pair a login just got, then ends the sessions it replaced.
    func keepLogin(_ issued: IssuedToken, username: String) async throws -> Token {
        await endQuietly(try await keeper.keep(issued, username: username))
        return issued.token
    }
}
