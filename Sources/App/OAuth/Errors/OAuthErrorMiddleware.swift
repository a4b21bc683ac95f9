import Foundation
import Web

/// In front of the OAuth endpoints: every client mistake is answered in RFC 6749 §5.2's shape.
/// An `OAuthError` as it is; anything else the framework refuses on the way (a body too large,
/// malformed JSON, a wrong content type) as `fallbackCode` (`invalid_request` at the token
/// endpoint, `invalid_client_metadata` at registration) with the framework's reason; a 429 or
/// 503 as `temporarily_unavailable`. Server faults pass on to `ErrorMiddleware`.
struct OAuthErrorMiddleware: Middleware {
    let fallbackCode: String

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as OAuthError {
            return error.response
        } catch let error as any AbortError where (400..<500).contains(error.status.code) || error.status.code == 503 {
            return OAuthError(status: error.status, code: code(for: error), description: error.reason, headers: error.headers).response
        } catch let error as DecodingError {
            return OAuthError(status: .badRequest, code: fallbackCode, description: Self.describe(error)).response
        }
    }

    /// A Bearer challenge's own `error` (RFC 6750 §3.1: `invalid_token`, `insufficient_scope`),
    /// else `temporarily_unavailable` for 429 and 503, else `fallbackCode`.
    private func code(for error: any AbortError) -> String {
        if let challenge = error.headers["WWW-Authenticate"], challenge.hasPrefix("Bearer ") {
            guard let start = challenge.range(of: #"error=""#)?.upperBound else { return "invalid_token" }
            return String(challenge[start...].prefix { $0 != "\"" })
        }
        return [429, 503].contains(error.status.code) ? "temporarily_unavailable" : fallbackCode
    }

    /// Which field was wrong, in words: `'redirect_uris' must be an array`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' must be \(type == String.self ? "a string" : "a \(type)")."
        case .keyNotFound(let key, _):
            "'\(key.stringValue)' is missing."
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "The body is not valid JSON." : "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is invalid."
        @unknown default:
            "The body could not be read."
        }
    }
}

extension RoutesBuilder {
    /// The `/oauth/…` routes, answering every client mistake in RFC 6749 §5.2's shape.
    func oauthEndpoints(fallbackCode: String = "invalid_request") -> any RoutesBuilder {
        grouped(OAuthErrorMiddleware(fallbackCode: fallbackCode)).grouped("oauth")
    }
}
