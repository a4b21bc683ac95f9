import Web

/// Adds `resource_metadata="ISSUER/.well-known/oauth-protected-resource/api"` (RFC 9728 §5.1)
/// to every Bearer challenge the API answers with (401 and 403, `BearerChallenge`), so a client
/// that knows nothing of TIL learns where to get a token. An error translation, so synchronous
/// routes keep their task-free path, and only the error path pays for it.
struct ResourceMetadataChallenge: ErrorTranslatingMiddleware {
    let issuer: ServedIssuer

    func translate(_ error: any Error, for request: Request) -> any Error {
        guard let abort = error as? any AbortError, let challenge = abort.headers["WWW-Authenticate"],
            challenge.hasPrefix("Bearer "), !challenge.contains("resource_metadata=")
        else { return error }
        var headers = abort.headers
        let metadata = issuer.current.endpoint(OAuthEndpoints.protectedResourceMetadata)
        headers.replaceOrAdd(name: "WWW-Authenticate", value: #"\#(challenge), resource_metadata="\#(metadata)""#)
        if let encodable = abort as? any EncodableAbortError { return encodable.replacingHeaders(headers) }  // its body kept
        return Abort(abort.status, reason: abort.reason, headers: headers)
    }
}
