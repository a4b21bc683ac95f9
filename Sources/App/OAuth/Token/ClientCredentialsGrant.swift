import Crypt
import Postgres
import Web

/// RFC 6749 §4.4 in one round trip (issue 18 benchmarks issuance against a bearer create): a
/// confidential client for itself, no user and no refresh token, and only scopes that mean
/// something without a user (`categories:write`, and other resources').
///
/// One statement reads the client and starts the session only where SQL finds every check
/// passed: the secret's digest, the method, the grant registered, the scopes within the
/// client's. Then the checks run again in Swift on the row read, exactly as the other grants
/// make them (the secret compared in constant time, a failure throttled), in the same order
/// and with the same answers. The SQL gate is never looser than those checks, so a refused
/// request stores nothing; were it ever stricter, the session is started by a second statement.
struct ClientCredentialsGrant: Sendable {
    let clients: ClientAuthenticator
    let tokens: OAuthTokenIssuer
    let db: PostgresClient
    let issuer: ServedIssuer
    let scopes: OAuthScopeCatalog

    func issue(_ request: Request, form: QueryParameters) async throws -> OAuthTokenAnswer {
        let credentials = try ClientCredentials(request, form: form)
        let target = Result { () throws(OAuthError) in
            try TokenTarget(resource: form["resource"], issuer: issuer.current, catalog: scopes)
        }
        let requested = Result { () throws(OAuthError) in try TokenTarget.requested(form["scope"]) }
        let audience = try? target.get().audience
        let grant = OAuthTokenIssuer.Grant(userID: nil, clientID: credentials.clientID, scopes: [], audience: audience, withRefreshToken: false)
        let issue = OAuthTokenIssuer.Issue(withRefreshToken: false)
        let rows = try await db.query(statement(credentials, gate: Gate(credentials, target: target, requested: requested), issue: issue, grant: grant))

        let found = try rows.first.map(ClientAuthenticator.stored)
        let client = try await clients.check(credentials, against: found, of: request, confidentialOnly: true)
        guard client.grantTypes.contains(.clientCredentials) else {
            throw OAuthError.unauthorizedClient("This client is not registered for the client_credentials grant.")
        }
        let granted = try Self.scopes(of: client, target: try target.get(), requested: try requested.get())
        if let row = rows.first, try row.decode(column: "expires_in", as: Double?.self) != nil {
            return try issue.answer(row)
        }
        return try await tokens.start(
            .init(userID: nil, clientID: client.id, scopes: granted, audience: audience, withRefreshToken: false), on: db)
    }

    /// What the client gets: the scopes asked for, all within those it registered that work
    /// without a user; when none are asked for, all of those. Never none.
    static func scopes(of client: OAuthClient, target: TokenTarget, requested: [String]?) throws(OAuthError) -> [String] {
        let allowed = client.scope.filter(userless(target).contains)
        let granted = try requested.map { names throws(OAuthError) in try TokenTarget.within(allowed, names) } ?? allowed
        guard !granted.isEmpty else { throw OAuthError.invalidScope("This client holds no scope that works without a user.") }
        return granted
    }

    /// The scopes of `target` that need no user: at TIL's API only `categories:write`.
    fileprivate static func userless(_ target: TokenTarget) -> [String] {
        target.audience == nil ? [Scope.categoriesWrite.rawValue] : target.scopes
    }

    /// What SQL needs to find alone that a request passes every check; nil when it cannot
    /// (no secret, an overlong one, a `resource` or `scope` already refused), or when the
    /// scopes to grant depend on the client's registered order (no `scope` asked at a resource
    /// with several scopes that need no user): then a second statement starts the session.
    private struct Gate {
        let secretDigest: String
        /// The scopes the session gets, space-separated, once SQL finds the client registered
        /// every one of them: the ones asked for, all userless, or else the one userless scope.
        let scopes: String

        init?(_ credentials: ClientCredentials, target: Result<TokenTarget, OAuthError>, requested: Result<[String]?, OAuthError>) {
            guard credentials.method != .none, let digest = credentials.secretDigest,
                case .success(let resolved) = target, case .success(let asked) = requested
            else { return nil }
            let userless = ClientCredentialsGrant.userless(resolved)
            if let asked {
                guard asked.allSatisfy(userless.contains) else { return nil }
                scopes = asked.joined(separator: " ")
            } else {
                guard userless.count == 1 else { return nil }
                scopes = userless[0]
            }
            secretDigest = digest
        }
    }

    /// The client's row (`ClientAuthenticator.columns`), and when SQL finds the request passes
    /// every check, the session `issue` started (`OAuthTokenIssuer.Issue.answerColumns`, NULL
    /// otherwise) with the gate's scopes: `scopes(of:target:requested:)`, as the gate made
    /// them, once the client is found to hold them all. No array is built in SQL.
    private func statement(
        _ credentials: ClientCredentials, gate: Gate?, issue: OAuthTokenIssuer.Issue, grant: OAuthTokenIssuer.Grant
    ) -> PostgresQuery {
        let id = credentials.clientID.utf8.count <= 128 ? credentials.clientID : ""
        return """
            WITH client AS (
                SELECT \(unescaped: ClientAuthenticator.columns) FROM oauth_clients WHERE id = \(id)
            ), granted AS (
                SELECT \(gate?.scopes)::text AS names FROM client c
                WHERE \(gate != nil) AND c.auth_method = \(credentials.method.rawValue) AND c.auth_method <> 'none'
                  AND c.secret_digest = \(gate?.secretDigest)
                  AND 'client_credentials' = ANY (string_to_array(c.grant_types, ' '))
                  AND string_to_array(c.scope, ' ') @> string_to_array(\(gate?.scopes), ' ')
            ), \(tokens.storing(issue, grant, scopes: "granted.names", for: "FROM granted"))
            SELECT client.*, \(OAuthTokenIssuer.Issue.answerColumns) FROM client LEFT JOIN session ON TRUE
            """
    }
}
