import Foundation

extension APIClient {
    /// The caller's email address: where it stands, changing it, verifying it.
    public var email: EmailAPI { EmailAPI(client: self) }
}

/// `/api/users/me/email...` and `/api/users/email/verify`. An address is verified by the token
/// of the link mailed to it; a change stays pending (the old address in force) until then.
public struct EmailAPI: Sendable {
    let client: APIClient

    /// `GET /api/users/me` with a token holding `account`, so the answer shows the address.
    public func status() async throws -> AccountProfile {
        try await client.send(APIRequest("GET", "/api/users/me", authorization: .bearer(.account)), as: AccountProfile.self)
    }

    /// `GET /api/users/me` with whichever token the client holds: the address is there only
    /// when that token holds `account` (a personal access token's, say, does not).
    public func profile() async throws -> AccountProfile {
        try await client.send(APIRequest("GET", "/api/users/me", authorization: .bearer(nil)), as: AccountProfile.self)
    }

    /// `PUT /api/users/me/email`: mails a link to `email`, which becomes the account's once
    /// followed; the account as it stands now (`pendingEmail`).
    public func change(to email: String, currentPassword: String) async throws -> AccountProfile {
        let request = try APIRequest(
            "PUT", "/api/users/me/email", json: EmailChangeRequest(email: email, currentPassword: currentPassword),
            authorization: .bearer(.account))
        return try await client.send(request, as: AccountProfile.self)
    }

    /// `POST /api/users/me/email/verification`: the link again, for the pending change or the
    /// unverified address (throttled: 429 with `Retry-After`).
    public func resendVerification() async throws {
        try await client.send(APIRequest("POST", "/api/users/me/email/verification", authorization: .bearer(.account)))
    }

    /// `POST /api/users/email/verify`: spends the link's `token` (no login needed). Takes the
    /// whole link too: its `token` is read from it.
    public func verify(token: String) async throws {
        try await client.send(try APIRequest("POST", "/api/users/email/verify", json: EmailVerificationRequest(token: Self.token(in: token))))
    }

    /// The token of `text`: the `token` query item when it is a link, else `text` itself.
    static func token(in text: String) -> String {
        guard text.contains("?"), let items = URLComponents(string: text)?.queryItems,
            let token = items.first(where: { $0.name == "token" })?.value
        else { return text }
        return token
    }
}
