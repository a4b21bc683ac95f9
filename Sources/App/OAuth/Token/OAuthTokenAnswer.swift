import Foundation
import Web

/// A successful token response (RFC 6749 §5.1), never stored by a cache; `refresh_token`
/// only when one is issued (the synthesized encoding omits a nil optional).
struct OAuthTokenAnswer: Encodable, Sendable {
    let accessToken: String
    let tokenType = "Bearer"
    let expiresIn: Int
    /// What the access token holds (it may be less than asked, RFC 6749 §3.3).
    let scope: String
    let refreshToken: String?
    /// OpenID Connect: with `openid` granted, who signed in (Core §3.1.3.3).
    var idToken: String? = nil
    /// The session the tokens belong to (not sent: it has no coding key).
    let sessionID: UUID

    func response(for request: Request) throws -> Response {
        try ContentResponse(self, status: .ok).encodeResponse(for: request).notStored()
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case scope
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }
}
