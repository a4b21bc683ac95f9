import Foundation
import Synchronization
import TILClient
import Web

/// Asks TIL whether a token is active (RFC 7662 §2.1), as the confidential client this API is
/// registered as (`client_secret_basic`, id and secret form-encoded first, RFC 6749 §2.3.1).
///
/// TILClient does the HTTP: Foundation's URLSession without cookies, caches or redirects, and
/// a request may only go to the issuer's origin, so the client secret is never sent elsewhere,
/// whatever the metadata says. The endpoint is discovered at the first need and kept; a failed
/// discovery is tried again at the next request.
final class Introspector: Sendable {
    let issuer: URL
    private let http: APIClient
    private let credentials: Authorization
    private let endpoint = Mutex<URL?>(nil)

    init(issuer: URL, clientID: String, clientSecret: String, timeout: TimeInterval = 5) {
        self.issuer = issuer
        var configuration = APIClient.Configuration()
        configuration.timeout = timeout
        configuration.retry = .never
        configuration.userAgent = "notes-api/1"
        http = APIClient(server: issuer, configuration: configuration)
        credentials = .basic(username: QueryEncoding.escape(clientID), password: QueryEncoding.escape(clientSecret))
    }

    /// TIL's answer for `token`. Throws when TIL cannot be asked (down, a refused client
    /// secret, a malformed answer): that is no answer about the token.
    func introspect(_ token: String) async throws -> IntrospectionResult {
        let form = QueryEncoding.encode([("token", token), ("token_type_hint", "access_token")])
        var request = APIRequest("POST", "", body: Data(form.utf8), authorization: credentials)
        request.url = try await introspectionEndpoint()
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await http.send(request, as: IntrospectionResult.self)
    }

    private func introspectionEndpoint() async throws -> URL {
        if let known = endpoint.withLock({ $0 }) { return known }
        let found = try await AuthorizationServerMetadata.fetch(for: issuer, with: http).introspectionEndpoint
        endpoint.withLock { $0 = found }
        return found
    }
}
