import Crypt
import Foundation
import Postgres
import Web

/// `POST /oauth/revoke` (RFC 7009): a client ends one of its own tokens. 200 for anything it
/// may send, an unknown token included (§2.2). Revoking a refresh token ends its grant (the
/// session); an access token ends alone. Another client's token (or a Basic login's) is
/// refused with `unauthorized_client` and stays valid.
struct RevocationController: RouteCollection {
    let clients: ClientAuthenticator
    let db: PostgresClient

    func boot(routes: any RoutesBuilder) throws {
        routes.oauthEndpoints().post("revoke", use: revoke)
    }

    func revoke(_ request: Request) async throws -> Response {
        let form = try TokenController.form(of: request)
        let client = try await clients.authenticate(request, form: form)
        guard let token = form["token"] else { throw OAuthError.invalidRequest("'token' is missing.") }
        if let hint = form["token_type_hint"], !["access_token", "refresh_token"].contains(hint) {
            throw OAuthError(status: .badRequest, code: "unsupported_token_type", description: "token_type_hint may be access_token or refresh_token.")
        }
        guard token.utf8.count <= 256, let found = try await find(SHA256.hex(of: token)) else { return Self.done }
        guard found.clientID == client.id else {
            throw OAuthError.unauthorizedClient("This token was not issued to this client.")
        }
        if found.isRefresh {
            try await db.execute("UPDATE sessions SET revoked_at = now() WHERE id = \(found.sessionID) AND revoked_at IS NULL")
        } else {
            try await db.execute("UPDATE tokens SET revoked_at = now() WHERE id = \(found.id) AND revoked_at IS NULL")
        }
        return Self.done
    }

    /// RFC 7009 §2.2: 200, nothing to read, nothing to cache.
    private static var done: Response { Response(status: .ok, headers: ["Cache-Control": "no-store"], body: []) }

    /// The access or refresh token with this digest, its session and client.
    private func find(_ digest: String) async throws -> (id: UUID, sessionID: UUID, clientID: String?, isRefresh: Bool)? {
        let rows = try await db.query("""
            SELECT t.id, s.id AS session_id, s.client_id, false AS refresh
            FROM tokens t JOIN sessions s ON s.id = t.session_id WHERE t.digest = \(digest)
            UNION ALL
            SELECT r.id, s.id, s.client_id, true FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.digest = \(digest)
            """)
        guard let row = rows.first else { return nil }
        return (
            try row.decode(column: "id"), try row.decode(column: "session_id"), try row.decode(column: "client_id", as: String?.self),
            try row.decode(column: "refresh")
        )
    }
}
