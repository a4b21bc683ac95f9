/// An `AbortError` that is its own JSON body: `ErrorMiddleware` encodes the whole value instead
/// of `{"error": true, "reason": "..."}`, so a refusal can carry fields a client acts on (RFC
/// 9470's `maxAge`, say). The value should hold `error` and `reason` too, as every body does.
public protocol EncodableAbortError: AbortError, Encodable {}
