import JOSE
import Postgres

/// Reads and writes `oauth_clients`. Lists are stored space-separated (see `OAuthSchema`).
struct ClientRepository: Sendable {
    /// A client, not any queryable: an open registration takes a lock in a transaction.
    let db: PostgresClient

    static let columns = "id, name, auth_method, redirect_uris, post_logout_redirect_uris, grant_types, scope, trusted, id_token_signed_response_alg"

    /// The client with this `client_id`, or nil. Overlong ids are nobody's: no query is sent.
    func find(id: String) async throws -> OAuthClient? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return nil }
        return try await db.query("SELECT \(unescaped: Self.columns) FROM oauth_clients WHERE id = \(id)")
            .first.map(Self.client)
    }

    /// A client from a row holding `columns`.
    static func client(_ row: PostgresRow) throws -> OAuthClient {
        func list(_ column: String) throws -> [String] {
            try row.decode(column: column, as: String.self).split(separator: " ").map(String.init)
        }
        let method = try row.decode(column: "auth_method", as: String.self)
        return OAuthClient(
            id: try row.decode(column: "id"),
            name: try row.decode(column: "name"),
            authMethod: OAuthClient.AuthMethod(rawValue: method) ?? .clientSecretBasic,
            redirectURIs: try list("redirect_uris"),
            postLogoutRedirectURIs: try list("post_logout_redirect_uris"),
            grantTypes: try list("grant_types").compactMap(OAuthClient.GrantType.init(rawValue:)),
            scope: try list("scope"),
            trusted: try row.decode(column: "trusted"),
            idTokenAlgorithm: JWSAlgorithm(rawValue: try row.decode(column: "id_token_signed_response_alg", as: String.self)) ?? .rs256)
    }
}
