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
        guard token.utf8.count <= 256, case .issued(let owner) = try await end(SHA256.hex(of: token), by: client) else {
            return Self.done
        }
        guard owner == client.id else {
            throw OAuthError.unauthorizedClient("This token was not issued to this client.")
        }
        return Self.done
    }

    /// RFC 7009 §2.2: 200, nothing to read, nothing to cache.
    private static var done: Response { Response(status: .ok, headers: ["Cache-Control": "no-store"], body: []) }

    /// A token as `end` found it.
    private enum Found {
        case unknown
        /// Issued to the client with this id (nil: to none, a login's token).
        case issued(to: String?)
    }

    /// Finds the access or refresh token with this digest and, when `client` was issued it,
    /// revokes it in the same statement: a refresh token's whole session, an access token alone.
    private func end(_ digest: String, by client: OAuthClient) async throws -> Found {
        let rows = try await db.query("""
            WITH found AS (
                SELECT t.id, s.id AS session_id, s.client_id, false AS refresh
                FROM tokens t JOIN sessions s ON s.id = t.session_id WHERE t.digest = \(digest)
                UNION ALL
                SELECT r.id, s.id, s.client_id, true FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.digest = \(digest)
            ), ended AS (
                UPDATE sessions SET revoked_at = now() FROM found
                WHERE sessions.id = found.session_id AND found.refresh AND found.client_id = \(client.id) AND sessions.revoked_at IS NULL
            ), revoked AS (
                UPDATE tokens SET revoked_at = now() FROM found
                WHERE tokens.id = found.id AND NOT found.refresh AND found.client_id = \(client.id) AND tokens.revoked_at IS NULL
            )
            SELECT client_id FROM found
            """)
        guard let row = rows.first else { return .unknown }
        return .issued(to: try row.decode(column: "client_id", as: String?.self))
    }
}
