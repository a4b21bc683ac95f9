import Foundation
import Web

/// This API as an OAuth protected resource (RFC 9728 §2), served at
/// `/.well-known/oauth-protected-resource` (plus the resource URI's path, §3.1): TIL issues its
/// tokens, and these are the scopes to ask TIL for. TIL's `RESOURCES` must list the same URI
/// with the same scopes.
struct ResourceMetadata: Content {
    let resource: String
    let authorizationServers: [String]
    let scopesSupported: [String]
    /// RFC 6750 §2.1 only: never a query parameter or a form field.
    var bearerMethodsSupported = ["header"]

    static let scopes = ["notes:read", "notes:write"]

    /// The path the document is served at, for `resource`.
    static func path(for resource: URL) -> String {
        "/.well-known/oauth-protected-resource" + (resource.path == "/" ? "" : resource.path)
    }

    /// Its absolute URL, for the `resource_metadata` of every challenge (RFC 9728 §5.1).
    static func url(for resource: URL) -> String {
        var components = URLComponents(url: resource, resolvingAgainstBaseURL: false)
        components?.path = path(for: resource)
        components?.query = nil
        return components?.string ?? path(for: resource)
    }

    private enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
    }
}
