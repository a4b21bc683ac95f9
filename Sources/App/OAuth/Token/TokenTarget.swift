import Web

/// Which API a token request is for (RFC 8707 `resource`) and which scopes it gets there.
/// TIL's own API is `ISSUER/api`, and the default; any other resource must be one of
/// `RESOURCES` exactly, else `invalid_target`. A scope of another audience is not for this
/// token: it is never mixed into one.
struct TokenTarget: Sendable, Equatable {
    /// The resource URI; nil for TIL's API.
    let audience: String?
    /// The scopes the audience defines.
    let scopes: [String]

    init(resource: String?, issuer: Issuer, catalog: OAuthScopeCatalog) throws(OAuthError) {
        guard let resource, resource != issuer.apiResource else {
            // OpenID Connect's scopes concern the user TIL knows: they go with TIL's audience.
            self.init(audience: nil, scopes: OAuthScopeCatalog.tilScopes.map(\.rawValue) + OpenIDScope.names)
            return
        }
        guard let defined = catalog.resource(named: resource) else {
            throw .invalidTarget("'\(resource.prefix(128))' is not a resource TIL issues tokens for.")
        }
        self.init(audience: defined.uri, scopes: defined.scopes)
    }

    private init(audience: String?, scopes: [String]) {
        self.audience = audience
        self.scopes = scopes
    }

    /// The names of a `scope` parameter, each a valid scope token; nil when absent.
    static func requested(_ text: String?) throws(OAuthError) -> [String]? {
        guard let text else { return nil }
        guard text.utf8.count <= 2048 else { throw .invalidScope("'scope' is longer than 2048 bytes.") }
        let names = text.split(separator: " ").map(String.init)
        guard !names.isEmpty else { throw .invalidScope("'scope' names no scope.") }
        for name in names where !OAuthScopeCatalog.isScopeToken(name) {
            throw .invalidScope("'\(name.prefix(64))' is not a scope name.")
        }
        return names.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// `wanted` when every name is within `allowed`; `invalid_scope` naming the first that is not.
    static func within(_ allowed: [String], _ wanted: [String]) throws(OAuthError) -> [String] {
        if let beyond = wanted.first(where: { !allowed.contains($0) }) {
            throw .invalidScope("'\(beyond.prefix(64))' is beyond what this grant allows.")
        }
        return wanted
    }
}
