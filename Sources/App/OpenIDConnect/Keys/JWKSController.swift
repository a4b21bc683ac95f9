import Web

/// `GET /oauth/jwks`, OpenID Connect's `jwks_uri`: the public signing keys as an RFC 7517 JWK
/// Set, every key not yet pruned (the ones that start signing later too). Relying parties may
/// cache it for `JWKS_MAX_AGE`, which is why a rotated key waits before it signs.
struct JWKSController: RouteCollection {
    let keys: SigningKeyRing

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("oauth").get("jwks", use: jwks)
    }

    func jwks(_ request: Request) async throws -> Response {
        var response = try Response.json(try await keys.publishedKeys())
        response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=\(keys.maxAge.components.seconds)")
        return response
    }
}
