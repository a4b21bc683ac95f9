/// Who may call a route, as the guard in front of it declares: anyone, or a caller who
/// authenticates with an HTTP scheme (`"bearer"`) and holds every scope listed (none listed:
/// any valid credential).
///
/// Read from the middleware that enforces it (`AccessGuard`), never written beside it, so it
/// cannot drift from what the server does: tests compare it with the OpenAPI document's
/// `security`.
public enum RouteAccess: Sendable, Hashable, CustomStringConvertible {
    case `public`
    case authenticated(scheme: String, scopes: [String])

    /// `public`, `bearer`, `bearer account`.
    public var description: String {
        switch self {
        case .public: "public"
        case .authenticated(let scheme, let scopes): ([scheme] + scopes).joined(separator: " ")
        }
    }
}

/// A middleware that decides who reaches the routes behind it, and says whom.
public protocol AccessGuard: Middleware {
    var access: RouteAccess { get }
}

extension Route {
    /// What the route's guard lets through: the innermost `AccessGuard` among its middleware;
    /// public without one.
    public var access: RouteAccess {
        for case let accessGuard as any AccessGuard in middleware.reversed() { return accessGuard.access }
        return .public
    }
}
