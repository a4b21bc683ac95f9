/// An `AbortError` that is its own JSON body: `ErrorMiddleware` encodes the whole value instead
/// of `{"error": true, "reason": "..."}`, so a refusal can carry fields a client acts on (RFC
/// 9470's `maxAge`, say). The value should hold `error` and `reason` too, as every body does.
public protocol EncodableAbortError: AbortError, Encodable, Sendable {}

extension EncodableAbortError {
    /// The same refusal, body and all, with `headers` instead of its own: for a middleware
    /// that amends a challenge (`WWW-Authenticate`) on the way out.
    public func replacingHeaders(_ headers: HTTPHeaders) -> any EncodableAbortError {
        HeadersReplaced(base: self, headers: headers)
    }
}

/// An `EncodableAbortError` with other headers.
private struct HeadersReplaced: EncodableAbortError {
    let base: any EncodableAbortError
    let headers: HTTPHeaders

    var status: HTTPStatus { base.status }
    var reason: String { base.reason }

    func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
    }
}
