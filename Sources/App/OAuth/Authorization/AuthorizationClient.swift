import Web

/// The first check of an authorization request: the client and the redirect URI. Until both
/// are proven, nothing may be sent to the URI (an open redirect), so every failure here is a
/// 400 page of TIL's: an unknown `client_id`, a `redirect_uri` the client did not register, or
/// none when it registered several.
struct AuthorizationClient: Sendable {
    let client: OAuthClient
    /// The URI the answer goes to: the one sent, or the only one registered.
    let redirectURI: String
    /// Whether the request named it (the token request must then name it again).
    let redirectURISent: Bool

    static let maxRedirectURIBytes = 2048

    static func find(_ parameters: AuthorizationParameters, in clients: ClientRepository) async throws -> AuthorizationClient {
        guard case .value(let clientID) = parameters.single("client_id") else {
            throw refusal(parameters.single("client_id") == .absent ? "client_id is missing." : "client_id was sent more than once.")
        }
        guard let client = try await clients.find(id: clientID) else { throw refusal("No application is registered as this client_id.") }
        switch parameters.single("redirect_uri") {
        case .value(let uri):
            guard uri.utf8.count <= maxRedirectURIBytes, RedirectURIMatch.isRegistered(uri, in: client.redirectURIs) else {
                throw refusal("This redirect_uri is not registered for the application.")
            }
            return AuthorizationClient(client: client, redirectURI: uri, redirectURISent: true)
        case .absent:
            guard client.redirectURIs.count == 1, let only = client.redirectURIs.first else {
                throw refusal("redirect_uri is missing, and the application registered more than one.")
            }
            return AuthorizationClient(client: client, redirectURI: only, redirectURISent: false)
        case .duplicated:
            throw refusal("redirect_uri was sent more than once.")
        }
    }

    /// The error page's text: what is wrong, and that TIL will not send the browser on.
    private static func refusal(_ reason: String) -> Abort {
        Abort(.badRequest, reason: "The application's sign-in request is invalid: \(reason) You were not sent back to it.")
    }

    /// The redirect that answers the request: `pairs` added to the redirect URI's query.
    func redirect(_ pairs: [(name: String, value: String)], state: String?, issuer: Issuer) -> String {
        var all = pairs
        if let state { all.append((name: "state", value: state)) }
        all.append((name: "iss", value: issuer.url))
        return QueryEncoding.appending(all, to: redirectURI)
    }
}
