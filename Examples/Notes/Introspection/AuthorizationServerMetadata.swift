import Foundation
import TILClient

/// The part of TIL's RFC 8414 metadata this API needs: where to introspect. Read from
/// `ISSUER/.well-known/oauth-authorization-server` (for an issuer with a path, the well-known
/// part goes between host and path, §3.1), never configured by hand.
struct AuthorizationServerMetadata: Decodable, Sendable {
    let issuer: String
    let introspectionEndpoint: URL

    private enum CodingKeys: String, CodingKey {
        case issuer
        case introspectionEndpoint = "introspection_endpoint"
    }

    /// Fetches and checks the metadata: its `issuer` must be the one configured, exactly (RFC
    /// 8414 §3.3), or a look-alike server could name its own endpoints.
    static func fetch(for issuer: URL, with client: APIClient) async throws -> AuthorizationServerMetadata {
        var request = APIRequest("GET", "")
        request.url = discoveryURL(of: issuer)
        let metadata = try await client.send(request, as: AuthorizationServerMetadata.self)
        guard metadata.issuer == issuer.absoluteString else {
            throw DiscoveryError(description: "the metadata names issuer \(metadata.issuer), not \(issuer.absoluteString)")
        }
        return metadata
    }

    /// `https://host/.well-known/oauth-authorization-server/path` for `https://host/path`.
    static func discoveryURL(of issuer: URL) -> URL? {
        var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false)
        components?.path = "/.well-known/oauth-authorization-server" + (issuer.path == "/" ? "" : issuer.path)
        return components?.url
    }

    struct DiscoveryError: Error, CustomStringConvertible {
        let description: String
    }
}
