import Foundation
import Web

/// Logs in the user whose access token is in `Authorization: Bearer <token>`.
///
/// No bearer credential: the request passes on anonymous (`Authenticator`), and `ScopeGuard`
/// decides. A bearer credential that is malformed, unknown, expired or revoked is refused here
/// with 401 `invalid_token`, so the client learns to refresh rather than to log in again blindly.
struct BearerAuthenticator: Authenticator {
    /// Tokens are 43 characters; anything this long is not one of ours and never reaches SQL.
    static let maxTokenBytes = 512

    let tokens: TokenRepository

    func credential(from request: Request) throws -> String? {
        guard let value = request.headers["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let scheme = parts.first, scheme.lowercased() == "bearer" else { return nil }
        return parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    }

    func authenticate(_ token: String, for request: inout Request) async throws {
        guard !token.isEmpty, token.utf8.count <= Self.maxTokenBytes else {
            throw BearerChallenge.invalidToken("The access token is malformed.")
        }
        switch try await tokens.authenticate(token) {
        case .valid(let identity):
            request.auth.login(identity.user)
            request.auth.login(identity)
        case .expired:
            throw BearerChallenge.invalidToken("The access token expired.")
        case .revoked, .unknown:
            throw BearerChallenge.invalidToken("The access token is unknown or revoked.")
        }
    }
}
