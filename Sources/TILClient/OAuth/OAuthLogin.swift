import Foundation

extension APIClient {
    /// Keeps the pair of an OAuth login (the device grant, or a browser sign-in's code) like a
    /// password login's: the sessions it replaces are ended, and it records the client that
    /// renews it at the token endpoint and `signIn`. The token endpoint names neither user nor
    /// session, so they are read with the new access token, held to this server's origin:
    /// `/api/users/me`, and the current session's id and end from `/api/users/me/sessions`
    /// when the grant holds `account`. Without it (a third-party app's usual grant), the id is
    /// one made here for this sign-in and its end is unknown: the server's refusal of a refresh
    /// says when it is over.
    func keepOAuthLogin(
        _ answer: OAuthTokens.Answer, response: APIResponse, clientID: String, signIn: SignInMethod
    ) async throws -> (token: Token, username: String) {
        let bearer = BearerToken(value: answer.accessToken, origins: Origin(server).map { [$0] } ?? [])
        let me = try await send(APIRequest("GET", "/api/users/me").bearing(bearer), as: PublicUser.self)
        let granted = answer.scope.map { $0.split(separator: " ").map { Scope(rawValue: String($0)) } } ?? []
        let date = response.serverDate ?? response.receivedAt
        var session = (id: UUID(), refreshLifetime: Date.distantFuture.timeIntervalSince(date), scopes: granted)
        if granted.isEmpty || granted.contains(.account) {
            let sessions = try await send(APIRequest("GET", "/api/users/me/sessions").bearing(bearer), as: [SessionInfo].self)
            guard let current = sessions.first(where: \.current) else {
                throw TILError.invalidResponse("The server listed no current session for the new login.")
            }
            session = (current.id, current.refreshExpiresAt.timeIntervalSince(date), current.scopes)
        }
        let token = OAuthTokens.token(
            answer, sessionID: session.id, userID: me.id, at: date, refreshLifetime: session.refreshLifetime, scopes: session.scopes)
        let issued = IssuedToken(token: token, serverDate: response.serverDate, receivedAt: response.receivedAt)
        await endQuietly(try await keeper.keep(issued, username: me.username, oauthClientID: clientID, signIn: signIn))
        return (token, me.username)
    }
}
