import Foundation
import Web

/// Every scope TIL's authorization server can grant, with the resource it is for and words for
/// the consent page: TIL's own (for `ISSUER/api`) and those `RESOURCES` defines.
public struct OAuthScopeCatalog: Sendable {
    public let resources: [ProtectedResource]
    /// Configured words for resource scopes (`RESOURCE_SCOPE_DESCRIPTIONS`).
    let descriptions: [String: String]

    init(resources: [ProtectedResource] = [], descriptions: [String: String] = [:]) {
        self.resources = resources
        self.descriptions = descriptions
    }

    /// TIL's own scopes, in canonical order (`clients:write` included: only admins hold it).
    static let tilScopes: [Scope] = Scope.grantable

    /// The words TIL's own scopes are shown with.
    static let tilWords: [Scope: String] = [
        .acronymsWrite: "Create, change and delete acronyms, and link them to categories, in your name",
        .categoriesWrite: "Create categories",
        .usersWrite: "Create user accounts",
        .account: "Manage your account: see and end your sessions, sign out everywhere, change your password",
        .clientsWrite: "Register applications that may sign in with TIL",
    ]

    /// What `scope` lets a client do, in words for the consent page; nil for a scope nobody
    /// defines. A resource scope without configured words is described by its resource.
    public func words(for scope: String) -> String? {
        if let til = Self.tilWords[Scope(rawValue: scope)] { return til }
        if let openID = OpenIDScope(rawValue: scope) { return openID.words }
        if let words = descriptions[scope] { return words }
        return resource(definingScope: scope).map { "'\(scope)' at \($0.uri)" }
    }

    /// The resource that defines `scope`, nil for TIL's own and for unknown ones.
    public func resource(definingScope scope: String) -> ProtectedResource? {
        resources.first { $0.scopes.contains(scope) }
    }

    /// The configured resource named exactly `uri`, or nil.
    public func resource(named uri: String) -> ProtectedResource? {
        resources.first { $0.uri == uri }
    }

    /// True for TIL's scopes, OpenID Connect's and every resource's.
    public func isKnown(_ scope: String) -> Bool {
        Self.tilScopes.contains(Scope(rawValue: scope)) || OpenIDScope(rawValue: scope) != nil || resource(definingScope: scope) != nil
    }

    /// Every scope name, TIL's first, then OpenID Connect's: discovery's `scopes_supported`.
    public var allScopes: [String] {
        Self.tilScopes.map(\.rawValue) + OpenIDScope.names + resources.flatMap(\.scopes)
    }

    /// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`, here at most 64 bytes.
    static func isScopeToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}
