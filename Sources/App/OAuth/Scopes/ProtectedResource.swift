import Foundation

/// A resource server other than TIL's API that TIL issues tokens for (RFC 8707): its URI, the
/// `resource` a client names, and the scopes it defines (`RESOURCES`).
public struct ProtectedResource: Sendable, Equatable {
    /// An absolute URI without a fragment, compared by exact string.
    public let uri: String
    /// The scope names this resource defines, in the order configured.
    public let scopes: [String]

    /// The longest resource URI accepted, in a configuration and in a request.
    static let maxURILength = 512

    /// Whether `text` may name a resource (RFC 8707 §2): an absolute `https` URI (or `http` on
    /// loopback), printable ASCII, without a fragment. Requests are checked against the
    /// configured list by exact string; this only keeps nonsense out of the configuration.
    static func isResourceURI(_ text: String) -> Bool {
        guard text.utf8.count <= maxURILength, !text.contains("#") else { return false }
        guard let issuer = try? Issuer(parsing: text.hasSuffix("/") ? String(text.dropLast()) : text) else { return false }
        return issuer.isHTTPS || issuer.isLoopback
    }
}

/// The `RESOURCES` list: `URI=scope scope;URI=scope…`.
extension [ProtectedResource] {
    /// Parses `RESOURCES`; throws the reason in words. A scope belongs to one resource only and
    /// never shadows one of TIL's own, so a scope name says which audience it is for.
    static func parsing(_ text: String) throws(OAuthSettings.Refusal) -> [ProtectedResource] {
        var resources: [ProtectedResource] = []
        var seenScopes = Set(OAuthScopeCatalog.tilScopes.map(\.rawValue) + OpenIDScope.names)
        for entry in text.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let equals = entry.firstIndex(of: "=") else { throw .init("'\(entry)' has no '=' between the URI and its scopes") }
            let uri = String(entry[..<equals]).trimmingCharacters(in: .whitespaces)
            guard ProtectedResource.isResourceURI(uri) else {
                throw .init("'\(uri)' is not an https URI without a fragment (http only on loopback)")
            }
            guard !resources.contains(where: { $0.uri == uri }) else { throw .init("'\(uri)' is listed twice") }
            let scopes = entry[entry.index(after: equals)...].split(separator: " ").map(String.init)
            guard !scopes.isEmpty else { throw .init("'\(uri)' defines no scope") }
            for scope in scopes {
                guard OAuthScopeCatalog.isScopeToken(scope) else { throw .init("'\(scope)' is not a scope name (RFC 6749 §3.3)") }
                guard seenScopes.insert(scope).inserted else { throw .init("the scope '\(scope)' is defined twice or is TIL's own") }
            }
            resources.append(ProtectedResource(uri: uri, scopes: scopes))
        }
        return resources
    }
}
