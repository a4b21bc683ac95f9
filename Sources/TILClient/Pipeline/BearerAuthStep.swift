/// Sends a bearer token with the requests that need one, and recovers once from a token the
/// server no longer takes.
///
/// The token comes from the `TokenKeeper`, refreshed ahead of its expiry, with the origins
/// recorded for it: the request carries them to `CredentialOriginStep`, which lets it leave only
/// for one of them. When the server still answers 401 `invalid_token` (revoked, or expired by
/// the server's clock), the keeper renews it — one refresh however many requests failed
/// together — and the request is sent once more. A second refusal is the answer.
struct BearerAuthStep: RequestStep {
    let keeper: TokenKeeper

    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        let wanted: TokenKeeper.Want
        switch request.authorization {
        case .bearer(let scope): wanted = .scope(scope)
        case .session(let scopes): wanted = .session(scopes)
        case .none, .basic: return try await next(request)
        }
        let token = try await keeper.token(for: wanted)
        let response = try await next(request.bearing(token))
        guard response.status == 401, response.authenticateError == "invalid_token" else { return response }
        try Task.checkCancellation()
        guard let renewed = try await keeper.token(replacing: token.value, for: wanted) else { return response }
        return try await next(request.bearing(renewed))
    }
}

/// An access token fit to send, and the only origins it may be sent to.
struct BearerToken: Sendable {
    var value: String
    var origins: [Origin]
}

extension APIRequest {
    /// This request with `token` in its `Authorization` header, held to the token's origins.
    func bearing(_ token: BearerToken) -> APIRequest {
        var copy = self
        copy.headers["Authorization"] = "Bearer \(token.value)"
        copy.credentialOrigins = token.origins
        return copy
    }
}
