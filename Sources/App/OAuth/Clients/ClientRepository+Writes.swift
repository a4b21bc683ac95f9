import Crypt
import Foundation
import JOSE
import Postgres

extension ClientRepository {
    /// A client just registered, with its secret (shown this once) when confidential.
    struct Registered: Sendable {
        let client: OAuthClient
        let secret: ClientSecret?
        let createdAt: Date
    }

    /// Stores `draft` as a new client with a fresh `client_id` (and secret when confidential).
    /// `registeredFrom` marks an open registration by address: then the insert happens only
    /// while that address registered fewer than `limit` clients in the last hour, and nil
    /// answers that it did not.
    func register(
        _ draft: ClientDraft, by userID: UUID?, from registeredFrom: String? = nil, limit: Int = .max
    ) async throws -> Registered? {
        guard let registeredFrom else { return try await insert(draft, by: userID, from: nil, limit: limit, on: db) }
        // One address's registrations one at a time: each count then sees every insert before
        // it, so registrations sent at once cannot all read a count below the limit.
        return try await db.withTransaction { tx in
            try await tx.execute("SELECT pg_advisory_xact_lock(3, hashtext(\(registeredFrom)))")
            return try await insert(draft, by: userID, from: registeredFrom, limit: limit, on: tx)
        }
    }

    private func insert(
        _ draft: ClientDraft, by userID: UUID?, from registeredFrom: String?, limit: Int, on runner: any PostgresQueryable
    ) async throws -> Registered? {
        let id = Self.newClientID()
        let secret = draft.authMethod == .none ? nil : ClientSecret.generate()
        let rows = try await runner.query("""
            INSERT INTO oauth_clients (id, name, secret_digest, auth_method, redirect_uris, post_logout_redirect_uris,
                                       grant_types, scope, trusted, registered_by, registered_from, id_token_signed_response_alg)
            SELECT \(id), \(draft.name ?? id), \(secret?.digest), \(draft.authMethod.rawValue), \(draft.redirectURIs.joined(separator: " ")),
                   \(draft.postLogoutRedirectURIs.joined(separator: " ")), \(draft.grantTypes.map(\.rawValue).joined(separator: " ")),
                   \(draft.scope.joined(separator: " ")), \(draft.trusted), \(userID), \(registeredFrom),
                   \(draft.idTokenAlgorithm.rawValue)
            WHERE (\(registeredFrom)::text IS NULL OR (
                SELECT count(*) FROM oauth_clients
                WHERE registered_from = \(registeredFrom) AND created_at > now() - interval '1 hour') < \(limit))
              -- An administrator's token is honoured only while they still are one: a session
              -- that took `clients:write` just before `users admin --revoke` committed cannot
              -- outlive the role.
              AND (\(userID)::uuid IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = \(userID) AND is_admin))
            RETURNING \(unescaped: Self.columns), created_at
            """)
        guard let row = rows.first else { return nil }
        return Registered(client: try Self.client(row), secret: secret, createdAt: try row.decode(column: "created_at", as: Date.self))
    }

    /// Every client, oldest first, with when it was registered.
    func list() async throws -> [(client: OAuthClient, createdAt: Date)] {
        try await db.query("SELECT \(unescaped: Self.columns), created_at FROM oauth_clients ORDER BY seq").map(Self.registered)
    }

    /// The client with exactly this id, with when it was registered; nil when there is none.
    func registered(id: String) async throws -> (client: OAuthClient, createdAt: Date)? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return nil }
        return try await db.query("SELECT \(unescaped: Self.columns), created_at FROM oauth_clients WHERE id = \(id)").first.map(Self.registered)
    }

    private static func registered(_ row: PostgresRow) throws -> (client: OAuthClient, createdAt: Date) {
        (try client(row), try row.decode(column: "created_at", as: Date.self))
    }

    /// Removes a client: its codes, grants and sessions go with it (`ON DELETE CASCADE`).
    /// False when there was none.
    func remove(id: String) async throws -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128 else { return false }
        return try await db.execute("DELETE FROM oauth_clients WHERE id = \(id)") > 0
    }

    /// A new `client_id`: random and URL-safe, and never starting with `-`, which a command
    /// line reads as an option (`til-server clients remove <id>` failed for one id in 64).
    static func newClientID() -> String {
        var id = SecureRandom.token()
        while id.hasPrefix("-") { id = SecureRandom.token() }
        return id
    }
}
