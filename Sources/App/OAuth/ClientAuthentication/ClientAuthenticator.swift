import Crypt
import Postgres
import Web

/// Authenticates the client of an OAuth request: the method it registered, and its secret
/// compared in constant time against the stored digest. Every failure is one answer, 401
/// `invalid_client` (with a Basic challenge when the header was used), so a caller cannot
/// tell an unknown client from a wrong secret; failures are throttled (`ClientAuthThrottle`).
struct ClientAuthenticator: Sendable {
    let db: PostgresClient
    let throttle: ClientAuthThrottle

    /// A client as stored, with its secret's digest (nil for a public client).
    typealias Stored = (client: OAuthClient, secretDigest: String?)

    /// The columns `stored` reads, of `oauth_clients`.
    static let columns = ClientRepository.columns + ", secret_digest"

    /// The authenticated client; `confidentialOnly` refuses public clients (introspection,
    /// `client_credentials`).
    func authenticate(_ request: Request, form: QueryParameters, confidentialOnly: Bool = false) async throws -> OAuthClient {
        let credentials = try ClientCredentials(request, form: form)
        return try await check(credentials, against: try await find(credentials.clientID), of: request, confidentialOnly: confidentialOnly)
    }

    /// `credentials` checked against the client read for them (nil: none has that id); a
    /// failure is recorded for `request`'s address and answered `invalid_client` (or 429).
    func check(
        _ credentials: ClientCredentials, against found: Stored?, of request: Request, confidentialOnly: Bool
    ) async throws -> OAuthClient {
        try await verify(
            credentials, method: found?.client.authMethod, secretDigest: found?.secretDigest, of: request,
            confidentialOnly: confidentialOnly)
        guard let client = found?.client else { preconditionFailure("verify refuses an unknown client") }
        return client
    }

    /// The rule itself, on the two columns it needs (`method` nil: no client has that id), for
    /// a caller that reads them within a statement of its own (introspection).
    func verify(
        _ credentials: ClientCredentials, method: OAuthClient.AuthMethod?, secretDigest: String?, of request: Request,
        confidentialOnly: Bool
    ) async throws {
        guard let method, method == credentials.method, !confidentialOnly || method != .none,
            method == .none || Self.matches(credentials, secretDigest)
        else {
            if let wait = try await throttle.recordFailure(clientID: credentials.clientID, address: request.clientAddress) {
                throw OAuthError.throttled("failed client authentications", retryAfter: wait)
            }
            throw OAuthError.invalidClient("Client authentication failed.", usedHeader: credentials.usedHeader)
        }
    }

    /// The sent secret's digest against the stored one, in constant time (`ClientSecret`).
    private static func matches(_ credentials: ClientCredentials, _ stored: String?) -> Bool {
        guard let sent = credentials.secretDigest, let stored else { return false }
        return ConstantTime.equals(sent, stored)
    }

    /// A client and its digest from a row holding `columns`.
    static func stored(_ row: PostgresRow) throws -> Stored {
        (try ClientRepository.client(row), try row.decode(column: "secret_digest", as: String?.self))
    }

    private func find(_ id: String) async throws -> Stored? {
        guard !id.isEmpty, id.utf8.count <= 128 else { return nil }
        let rows = try await db.query("SELECT \(unescaped: Self.columns) FROM oauth_clients WHERE id = \(id)")
        return try rows.first.map(Self.stored)
    }
}
