import Foundation

/// TIL's OAuth token endpoint as the client speaks to it (RFC 6749 §5): form-encoded requests,
/// `{"access_token", "expires_in", "refresh_token", "scope"}` answers, `{"error",
/// "error_description"}` refusals.
enum OAuthTokens {
    static let path = "/oauth/token"

    /// A successful answer (RFC 6749 §5.1).
    struct Answer: Decodable, Sendable {
        var accessToken: String
        var expiresIn: Int
        var refreshToken: String?
        var scope: String?
        /// OpenID Connect: who signed in, when `openid` was granted.
        var idToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case refreshToken = "refresh_token"
            case scope
            case idToken = "id_token"
        }
    }

    /// A refusal (RFC 6749 §5.2, RFC 8628 §3.5).
    struct Refusal: Decodable, Sendable {
        var error: String
        var errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    /// `POST /oauth/token` with `fields` form-encoded.
    static func request(_ fields: [(name: String, value: String)]) -> APIRequest {
        var request = APIRequest("POST", path, body: Data(formEncoded(fields).utf8))
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        return request
    }

    static func formEncoded(_ fields: [(name: String, value: String)]) -> String {
        fields.map { "\(BaseURLStep.percentEncoded($0.name))=\(BaseURLStep.percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// The answer of a token request, or the refusal it carries as `TILError.server` (its
    /// `error` code and description as the reason).
    static func answer(_ response: APIResponse) throws -> Answer {
        guard response.isSuccess else { throw refusal(response) }
        return try APIClient.decode(Answer.self, from: response)
    }

    /// An OAuth endpoint's refusal as `TILError.server`, its `error` code and description as
    /// the reason (a 4xx of it ends a stored login, as `/api/users/refresh`'s does).
    static func refusal(_ response: APIResponse) -> TILError {
        let refusal = try? JSONDecoder().decode(Refusal.self, from: response.body)
        let reason = refusal.map { "\($0.error): \($0.errorDescription ?? "")" } ?? StatusText.text(response.status)
        return TILError.server(status: response.status, reason: reason, authenticateError: nil)
    }

    /// RFC 6749 §6 for an OAuth login's credential, as `clientID`: the new pair for the same
    /// session and user, its access token holding `scopes` — always named, so that a narrowed
    /// token stays as narrow and a narrowing gets only what it asks for. The token endpoint does
    /// not say when the new refresh token lapses; a refresh renews it for as long as the last
    /// one lived, which the credential recorded.
    static func refresh(_ credential: Credential, scopes: ScopeSet, clientID: String, on pipeline: Pipeline) async throws -> IssuedToken {
        var request = request([
            (name: "grant_type", value: "refresh_token"), (name: "refresh_token", value: credential.refreshToken),
            (name: "client_id", value: clientID), (name: "scope", value: scopes.description),
        ])
        request.credentialOrigins = credential.origins
        let response = try await pipeline.send(request)
        let answer = try answer(response)
        let issuedAt = credential.expiresAt.addingTimeInterval(-credential.lifetime)
        let token = token(
            answer, sessionID: credential.sessionID, userID: credential.userID, at: response.serverDate ?? response.receivedAt,
            refreshLifetime: credential.refreshExpiresAt.timeIntervalSince(issuedAt), scopes: Array(scopes.scopes),
            keeping: credential.refreshToken)
        return IssuedToken(token: token, serverDate: response.serverDate, receivedAt: response.receivedAt)
    }

    /// The pair of `answer` as TIL's `Token`, dated from `date` (the server's clock); without a
    /// new refresh token in the answer, the one `keeping` names stays.
    static func token(
        _ answer: Answer, sessionID: UUID, userID: UUID, at date: Date, refreshLifetime: TimeInterval, scopes fallback: [Scope],
        keeping refreshToken: String = ""
    ) -> Token {
        Token(
            id: sessionID, value: answer.accessToken, user: UserReference(id: userID),
            expiresAt: date.addingTimeInterval(TimeInterval(answer.expiresIn)), refreshToken: answer.refreshToken ?? refreshToken,
            refreshExpiresAt: date.addingTimeInterval(refreshLifetime),
            scopes: answer.scope.map { $0.split(separator: " ").map { Scope(rawValue: String($0)) } } ?? fallback)
    }
}
