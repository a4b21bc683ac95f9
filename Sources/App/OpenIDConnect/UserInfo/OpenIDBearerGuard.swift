import Crypt
import Foundation
import Postgres
import Web

/// Lets a request through only with an access token holding `openid` (userinfo's): its user
/// and the token's scopes logged in as `OpenIDSubject`. TIL's `BearerAuthenticator` knows only
/// the API's scopes; OpenID Connect's come from an OAuth grant alone, so this reads the token
/// itself, in one statement. The token only in the `Authorization` header (RFC 6750 §2.1): one
/// in the query or a form body is refused. Errors are RFC 6750 §3's: 401 `invalid_token`, 403
/// `insufficient_scope`, each with its `WWW-Authenticate`.
struct OpenIDBearerGuard: AccessGuard {
    let db: PostgresClient

    var access: RouteAccess { .authenticated(scheme: "bearer", scopes: [OpenIDScope.openid.rawValue]) }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        if !request.query.all("access_token").isEmpty || !(request.form?.all("access_token").isEmpty ?? true) {
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
        var request = request
        request.auth.login(OpenIDSubject(
            userID: try row.decode(column: "id"), name: try row.decode(column: "name"), username: try row.decode(column: "username"),
            scopes: scopes))
        return try await next.respond(to: request)
    }

    /// RFC 6750 §3.1 `invalid_request`: the token was sent another way than the header.
    static let tokenOutsideTheHeader = Abort(
        .badRequest, reason: "Send the access token in the Authorization header only.", headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="invalid_request", error_description="Send the access token in the Authorization header only.""#,
        ])
}

/// The user an `openid` token speaks for, and what the token holds.
struct OpenIDSubject: Authenticatable {
    let userID: UUID
    let name: String
    let username: String
    let scopes: [String]
}
