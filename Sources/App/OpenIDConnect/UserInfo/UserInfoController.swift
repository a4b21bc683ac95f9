import Crypt
import Foundation
import Postgres
import Web

/// `GET` and `POST /oauth/userinfo` (OpenID Connect Core §5.3): who the access token's user
/// is, `sub` always and `name` and `preferred_username` when the token holds `profile`. The
/// token only in the `Authorization` header (RFC 6750 §2.1; a token in the query or the body is
/// refused, as TIL's API refuses it). Errors are RFC 6750 §3's: 401 `invalid_token`, 403
/// `insufficient_scope` for a token without `openid`, each with its `WWW-Authenticate`.
struct UserInfoController: RouteCollection {
    let db: PostgresClient

    func boot(routes: any RoutesBuilder) throws {
        routes.get("oauth", "userinfo", use: userInfo)
        routes.post("oauth", "userinfo", use: userInfo)
    }

    func userInfo(_ request: Request) async throws -> Response {
        if request.query.all("access_token").count > 0 || (request.form?.all("access_token").count ?? 0) > 0 {
            throw Self.tokenOutsideTheHeader
        }
        guard let sent = request.headers.bearerCredential else { throw BearerChallenge.missingToken }
        guard let token = BearerToken(sent) else { throw BearerChallenge.malformedToken }
        let digest = SHA256.hex(of: token.value)
        let rows = try await db.query("""
            SELECT t.digest, coalesce(t.scopes, s.scopes) AS scopes, u.id, u.name, u.username
            FROM tokens t
            JOIN sessions s ON s.id = t.session_id AND s.revoked_at IS NULL
            JOIN users u ON u.id = s.user_id
            WHERE t.digest = \(digest) AND t.revoked_at IS NULL AND t.expires_at > now()
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else {
            throw BearerChallenge.invalidToken(BearerChallenge.unknownOrRevoked)
        }
        let scopes = try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init)
        guard scopes.contains(OpenIDScope.openid.rawValue) else { throw BearerChallenge.insufficientScope(Scope(rawValue: "openid")) }
        let withProfile = scopes.contains(OpenIDScope.profile.rawValue)
        let claims = UserInfoClaims(
            sub: try row.decode(column: "id", as: UUID.self).uuidString.lowercased(),
            name: withProfile ? try row.decode(column: "name", as: String.self) : nil,
            preferredUsername: withProfile ? try row.decode(column: "username", as: String.self) : nil)
        return try Response.json(claims).notStored()
    }

    /// RFC 6750 §3.1 `invalid_request`: the token was sent another way than the header.
    static let tokenOutsideTheHeader = Abort(
        .badRequest, reason: "Send the access token in the Authorization header only.", headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="invalid_request", error_description="Send the access token in the Authorization header only.""#,
        ])

    /// The answer (§5.3.2); nil claims are left out.
    private struct UserInfoClaims: Encodable {
        let sub: String
        let name: String?
        let preferredUsername: String?

        private enum CodingKeys: String, CodingKey {
            case sub, name
            case preferredUsername = "preferred_username"
        }
    }
}
