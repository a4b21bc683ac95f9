public import Foundation

/// One request as the pipeline sees it: what to ask for and which credential it needs. The
/// steps fill in the rest (URL, JSON headers, the `Authorization` header).
public struct APIRequest: Sendable {
    public var method: String
    /// Relative to the server, `/api/acronyms`; ignored once `url` is set.
    public var path: String
    public var query: [(name: String, value: String)]
    /// The absolute URL, set by the base-URL step, or given up front (a `Link` to the next page).
    public var url: URL?
    public var headers: [String: String]
    public var body: Data?
    public var authorization: Authorization
    /// Where the credential this request carries may go — a bearer token in its header, a
    /// refresh token in its body — as recorded with it; nil when it carries none.
    /// `CredentialOriginStep` holds the request to it just before it leaves.
    var credentialOrigins: [Origin]?

    public init(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], body: Data? = nil,
        authorization: Authorization = .none
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = [:]
        self.body = body
        self.authorization = authorization
    }

    /// A request with `value` encoded as its JSON body.
    public init(
        _ method: String, _ path: String, json value: some Encodable, authorization: Authorization = .none
    ) throws {
        self.init(method, path, body: try JSONEncoder().encode(value), authorization: authorization)
    }

    /// Throws unless the request goes to one of `origins`: a credential recorded for them is
    /// never sent anywhere else.
    func ensureGoes(to origins: [Origin]) throws {
        guard let origin = url.flatMap(Origin.init), origins.contains(origin) else {
            let issuer = origins.map(\.description).joined(separator: ", ")
            let target = url.flatMap(Origin.init)?.description ?? url?.absoluteString ?? path
            throw TILError.notAuthenticated(
                "This token belongs to \(issuer.isEmpty ? "no server" : issuer) and is sent nowhere else (not to \(target)).")
        }
    }

    /// Whether sending it twice does what sending it once does (RFC 9110 §9.2.2).
    var isIdempotent: Bool { ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) }
}

/// The credential a request travels with.
public enum Authorization: Sendable, Hashable {
    /// None: public reads.
    case none
    /// HTTP Basic: only the login.
    case basic(username: String, password: String)
    /// A bearer token that carries `scope` (nil: any valid token), refreshed as needed.
    case bearer(Scope?)
    /// The bearer token of one login, the one holding exactly these scopes (logout ends it).
    case session(ScopeSet)
}
