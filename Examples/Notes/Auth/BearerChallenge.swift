import Foundation
import Web

/// This API's refusals (RFC 6750 §3), each with a `WWW-Authenticate: Bearer` challenge that
/// names its RFC 9728 metadata (`resource_metadata`), so a client that meets a 401 here can
/// find TIL and the scopes to ask for without knowing anything in advance.
struct BearerChallenge: Sendable {
    let realm: String
    /// The URL of this API's protected resource metadata.
    let resourceMetadata: String

    /// No bearer token at all: the scheme, realm and metadata, no error code (§3.1).
    var missingToken: Abort {
        refusal(.unauthorized, "A bearer token from TIL is required.", [])
    }

    /// Malformed, unknown, expired, revoked, or for another resource (§3.1 `invalid_token`).
    func invalidToken(_ description: String) -> Abort {
        refusal(.unauthorized, description, [("error", "invalid_token"), ("error_description", description)])
    }

    /// A good token without the scope the route needs (§3.1 `insufficient_scope`).
    func insufficientScope(_ scope: String) -> Abort {
        let description = "This token lacks the '\(scope)' scope."
        return refusal(.forbidden, description, [("error", "insufficient_scope"), ("scope", scope), ("error_description", description)])
    }

    /// TIL could not be asked: no answer about the token, so nothing is cached and the client
    /// may retry.
    var authorizationServerUnavailable: Abort {
        Abort(.serviceUnavailable, reason: "The authorization server cannot be reached; try again.", headers: ["Retry-After": "5"])
    }

    private func refusal(_ status: HTTPStatus, _ reason: String, _ parameters: [(String, String)]) -> Abort {
        let all = [("realm", realm)] + parameters + [("resource_metadata", resourceMetadata)]
        // Every value is ours (a scope name, a fixed sentence): nothing to escape but quotes.
        let challenge = "Bearer " + all.map { #"\#($0.0)="\#($0.1.replacingOccurrences(of: "\"", with: "'"))""# }.joined(separator: ", ")
        return Abort(status, reason: reason, headers: ["WWW-Authenticate": challenge])
    }
}
