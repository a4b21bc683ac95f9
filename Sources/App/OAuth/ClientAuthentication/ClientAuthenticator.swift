import Postgres
import Web

/// Authenticates the client of an OAuth request: the method it registered, and its secret
/// compared in constant time against the stored digest. Every failure is one answer, 401
/// `invalid_client` (with a Basic challenge when the header was used), so a caller cannot
/// tell an unknown client from a wrong secret; failures are throttled (`ClientAuthThrottle`).
struct ClientAuthenticator: Sendable {
    let db: PostgresClient
    let throttle: ClientAuthThrottle

    /// The authenticated client; `confidentialOnly` refuses public clients (introspection,
    /// `client_credentials`).
    func authenticate(_ request: Request, form: QueryParameters, confidentialOnly: Bool = false) async throws -> OAuthClient {
        let credentials = try ClientCredentials(request, form: form)
        let found = try await find(credentials.clientID)
        guard let (client, digest) = found, client.authMethod == credentials.method,
            !confidentialOnly || !client.isPublic,
            client.isPublic || ClientSecret.matches(credentials.secret ?? "", digest: digest ?? "")
        else {
            if let wait = try await throttle.recordFailure(clientID: credentials.clientID, address: request.clientAddress) {
                throw OAuthError.throttled("failed client authentications", retryAfter: wait)
            }
            throw OAuthError.invalidClient("Client authentication failed.", usedHeader: credentials.usedHeader)
        }
        return client
    }

    private func find(_ id: String) async throws -> (OAuthClient, String?)? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return nil }
        let rows = try await db.query("""
            SELECT \(unescaped: ClientRepository.columns), secret_digest FROM oauth_clients WHERE id = \(id)
            """)
        guard let row = rows.first else { return nil }
        return (try ClientRepository.client(row), try row.decode(column: "secret_digest", as: String?.self))
    }
}
