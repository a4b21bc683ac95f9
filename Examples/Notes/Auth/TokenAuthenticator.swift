import Foundation
import Logging
import Web

/// Turns `Authorization: Bearer …` into a `NotesCaller`, or refuses it: a malformed token
/// without asking TIL; an inactive one, one past its `exp`, and one whose `aud` is not this
/// API (a token for TIL's own API, say) with 401 `invalid_token`. Scopes are the guard's
/// business (`ScopeRequirement`).
struct TokenAuthenticator: Authenticator {
    let introspector: Introspector
    let cache: IntrospectionCache
    /// This API's resource URI, compared with `aud` by exact string (RFC 8707).
    let resourceURI: String
    let challenge: BearerChallenge

    func credential(from request: Request) throws -> String? {
        guard let sent = request.headers.bearerCredential else { return nil }
        guard let token = BearerToken(sent) else { throw challenge.invalidToken("The access token is malformed.") }
        return token.value
    }

    func authenticate(_ token: String, for request: inout Request) async throws {
        let now = Date()
        let result = try await introspection(of: token, for: request, now: now)
        guard result.active else { throw challenge.invalidToken("The access token is not active.") }
        if let expiry = result.expiry, expiry <= now { throw challenge.invalidToken("The access token expired.") }
        guard result.audiences.contains(resourceURI) else {
            throw challenge.invalidToken("The access token is for another resource, not \(resourceURI).")
        }
        guard let owner = result.sub ?? result.clientID.map({ "client:\($0)" }) else {
            throw challenge.invalidToken("The access token names no user and no client.")
        }
        request.auth.login(NotesCaller(owner: owner, username: result.username, scopes: result.scopes))
    }

    /// The cached answer while it lives, else TIL's (kept when active, timed from `now`, before
    /// the question left).
    private func introspection(of token: String, for request: Request, now: Date) async throws -> IntrospectionResult {
        if let cached = cache.result(for: token, now: now) { return cached }
        do {
            let result = try await introspector.introspect(token)
            cache.store(result, for: token, now: now)
            return result
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            request.logger.error("introspection failed", metadata: ["error": "\(error)"])
            throw challenge.authorizationServerUnavailable
        }
    }
}
