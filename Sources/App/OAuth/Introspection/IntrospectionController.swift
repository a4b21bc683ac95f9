import Crypt
import Foundation
import Postgres
import Web

/// `POST /oauth/introspect` (RFC 7662), for confidential clients (resource servers): whether an
/// access token is active, and what it holds. One statement reads the caller's client row and
/// the token together, so the success path is one round trip with no throttle read (issue 18:
/// benchmarked against `GET /api/acronyms/:id`). Anything not active is exactly
/// `{"active": false}`: nothing tells an expired token from a forged one.
struct IntrospectionController: RouteCollection {
    let db: PostgresClient
    let clients: ClientAuthenticator
    let issuer: ServedIssuer

    func boot(routes: any RoutesBuilder) throws {
        routes.oauthEndpoints().post("introspect", use: introspect)
    }

    func introspect(_ request: Request) async throws -> Response {
        let form = try TokenController.form(of: request)
        let credentials = try ClientCredentials(request, form: form)
        guard let token = form["token"] else { throw OAuthError.invalidRequest("'token' is missing.") }
        let digest = token.utf8.count <= 256 ? SHA256.hex(of: token) : ""
        let rows = try await db.query("""
            SELECT c.auth_method, c.secret_digest, t.digest, s.id AS session_id,
                   coalesce(t.scopes, s.scopes) AS scopes, s.client_id, s.audience, array_to_string(s.amr, ' ') AS amr,
                   u.id AS user_id, u.username, extract(epoch FROM t.expires_at)::bigint AS exp,
                   extract(epoch FROM t.created_at)::bigint AS iat
            FROM (SELECT auth_method, secret_digest FROM oauth_clients WHERE id = \(credentials.clientID)) c
            LEFT JOIN tokens t ON t.digest = \(digest) AND t.revoked_at IS NULL AND t.expires_at > now()
            LEFT JOIN sessions s ON s.id = t.session_id AND s.revoked_at IS NULL
            LEFT JOIN users u ON u.id = s.user_id
            """)
        // The client's checks on the row read; only a failure costs more (its throttle).
        let method = try rows.first.map { OAuthClient.AuthMethod(rawValue: try $0.decode(column: "auth_method", as: String.self)) } ?? nil
        try await clients.verify(
            credentials, method: method, secretDigest: try rows.first?.decode(column: "secret_digest", as: String?.self), of: request,
            confidentialOnly: true)
        guard let row = rows.first, let stored = try row.decode(column: "digest", as: String?.self), ConstantTime.equals(stored, digest),
            try row.decode(column: "session_id", as: UUID?.self) != nil
        else { return try Response.json(Inactive()).notStored() }
        return try Response.json(try Active(row, issuer: issuer.current)).notStored()
    }

    private struct Inactive: Encodable {
        let active = false
    }

    /// RFC 7662 §2.2 for an active token.
    private struct Active: Encodable {
        let active = true
        let scope: String
        let clientID: String?
        let username: String?
        let sub: String?
        let exp: Int64
        let iat: Int64
        let tokenType = "Bearer"
        let aud: String
        /// How the user's login was proven (RFC 8176); none for a client's own token.
        let amr: [String]?

        init(_ row: PostgresRow, issuer: Issuer) throws {
            scope = try row.decode(column: "scopes", as: String.self)
            clientID = try row.decode(column: "client_id", as: String?.self)
            username = try row.decode(column: "username", as: String?.self)
            sub = try row.decode(column: "user_id", as: UUID?.self)?.uuidString.lowercased()
            exp = try row.decode(column: "exp", as: Int64.self)
            iat = try row.decode(column: "iat", as: Int64.self)
            aud = try row.decode(column: "audience", as: String?.self) ?? issuer.apiResource
            amr = sub == nil ? nil : try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init)
        }

        private enum CodingKeys: String, CodingKey {
            case active, scope, username, sub, exp, iat, aud, amr
            case clientID = "client_id"
            case tokenType = "token_type"
        }
    }
}
