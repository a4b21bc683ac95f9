import Foundation
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

    /// Encoded by `JSONEncoder`, which merges the two documents' containers into one object
    /// (the streaming encoder writes containers one after the other).
    func openIDProvider(_ request: Request) async throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]  // the same bytes from every process
        let body = try encoder.encode(OpenIDProviderMetadata(issuer: issuer.current, scopes: scopes))
        return Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(body))
    }

    func protectedResource(_ request: Request) async throws -> ProtectedResourceMetadata {
        ProtectedResourceMetadata(issuer: issuer.current)
    }
}
