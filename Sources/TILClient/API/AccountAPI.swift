public import Foundation

extension APIClient {
    /// The caller's own account: where it is logged in, and its password.
    public var account: AccountAPI { AccountAPI(client: self) }
}

/// `/api/users/me/...`; everything here needs a token with the `account` scope.
public struct AccountAPI: Sendable {
    let client: APIClient

    /// `GET /api/users/me/sessions`: every live login, oldest first.
    public func sessions() async throws -> [SessionInfo] {
        try await client.send(APIRequest("GET", "/api/users/me/sessions", authorization: .bearer(.account)), as: [SessionInfo].self)
    }

    /// `DELETE /api/users/me/sessions/:id`: ends one login.
    public func endSession(_ id: UUID) async throws {
        try await client.send(APIRequest("DELETE", "/api/users/me/sessions/\(id.uuidString)", authorization: .bearer(.account)))
    }

    /// `PUT /api/users/me/password`: every other session ends; this one stays. With TOTP on,
    /// `proof` (a code or a recovery code) is required as well.
    public func changePassword(current: String, new: String, proof: SecondFactorCode? = nil) async throws {
        let body = PasswordChangeRequest(currentPassword: current, newPassword: new, code: proof?.code, recoveryCode: proof?.recoveryCode)
        try await client.send(try APIRequest("PUT", "/api/users/me/password", json: body, authorization: .bearer(.account)))
    }
}
