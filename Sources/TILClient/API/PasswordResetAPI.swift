import Foundation

extension APIClient {
    /// A forgotten password: a link by mail, then the new password with the link's token.
    /// Neither call needs a login.
    public var passwordReset: PasswordResetAPI { PasswordResetAPI(client: self) }
}

/// `/api/users/password-reset...`: no credentials but the mailed token.
public struct PasswordResetAPI: Sendable {
    let client: APIClient

    /// `POST /api/users/password-reset`: asks for a link for `login` (a username or an email
    /// address). The answer's message is the same whether the login names an account or not.
    @discardableResult
    public func request(login: String) async throws -> String {
        let request = try APIRequest("POST", "/api/users/password-reset", json: PasswordResetRequest(login: login))
        return try await client.send(request, as: PasswordResetAccepted.self).message
    }

    /// `POST /api/users/password-reset/confirm`: sets `newPassword` with the mail's `token`;
    /// every session of the account ends. For an account with a second factor this throws
    /// `TILError.secondFactorRequired` (the token stays valid): finish with
    /// `confirm(token:challenge:with:)`.
    public func confirm(token: String, newPassword: String) async throws {
        let request = try APIRequest(
            "POST", "/api/users/password-reset/confirm", json: PasswordResetConfirmation(token: token, newPassword: newPassword))
        let response = try await client.pipeline.send(request)
        if let challenge = SecondFactorChallenge(response, username: "the account") { throw TILError.secondFactorRequired(challenge) }
        _ = try APIClient.checked(response, for: request)
    }

    /// The second confirm: `answer` (a code or a recovery code) for the `challenge` the first
    /// threw; the first call's new password stands. A wrong code is a 401 `TILError.server`,
    /// and the challenge may be tried again until the reset's fifth wrong code ends it.
    public func confirm(token: String, challenge: SecondFactorChallenge, with answer: SecondFactorCode) async throws {
        let body = PasswordResetConfirmation(
            token: token, newPassword: nil, mfaToken: challenge.mfaToken, code: answer.code, recoveryCode: answer.recoveryCode)
        var request = try APIRequest("POST", "/api/users/password-reset/confirm", json: body)
        request.credentialOrigins = challenge.origin.map { [$0] } ?? []
        try await client.send(request)
    }
}
