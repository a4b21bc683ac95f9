import Foundation

extension AccountAPI {
    /// `POST /api/users/me/reauth`: proves who the caller is again, renewing the session's
    /// authentication time, so sensitive changes go through for the server's `REAUTH_WINDOW`.
    /// With TOTP on and no `proof`, throws `TILError.reauthenticationRequired` naming the
    /// methods to add; a wrong password or code is a 403 `TILError.server`.
    public func reauthenticate(password: String, proof: SecondFactorCode? = nil) async throws {
        try await client.send(Self.reauthentication(ReauthenticationAnswer(password: password, proof: proof)))
    }

    /// The request `reauthenticate` sends.
    static func reauthentication(_ answer: ReauthenticationAnswer) throws -> APIRequest {
        let body = ReauthenticationRequest(password: answer.password, code: answer.proof?.code, recoveryCode: answer.proof?.recoveryCode)
        return try APIRequest("POST", "/api/users/me/reauth", json: body, authorization: .bearer(.account))
    }
}
