import Web

/// The well-known documents of RFC 8414, RFC 9728 and OpenID Connect Discovery. Public, and built per request from the
/// served issuer, which a `--port 0` server knows only once bound.
struct DiscoveryController: RouteCollection {
    let issuer: ServedIssuer
    let scopes: OAuthScopeCatalog

    func boot(routes: any RoutesBuilder) throws {
        let wellKnown = routes.grouped(".well-known")
        wellKnown.get("oauth-authorization-server", use: authorizationServer)
        wellKnown.get("openid-configuration", use: openIDProvider)
        wellKnown.get("oauth-protected-resource", "api", use: protectedResource)
        // RFC 9728 §3.1 derives the path above from `ISSUER/api`; a client that strips the
        // resource's path asks here, and gets the same answer.
        wellKnown.get("oauth-protected-resource", use: protectedResource)
    }

    func authorizationServer(_ request: Request) async throws -> AuthorizationServerMetadata {
        AuthorizationServerMetadata(issuer: issuer.current, scopes: scopes)
    }

    func openIDProvider(_ request: Request) async throws -> Response {
        try Response.json(OpenIDProviderMetadata(issuer: issuer.current, scopes: scopes))
    }

    func protectedResource(_ request: Request) async throws -> ProtectedResourceMetadata {
        ProtectedResourceMetadata(issuer: issuer.current)
    }
}
