import Web

extension Abort {
    /// 429 "Too many `what`; try again in N seconds." with `Retry-After: N`: the answer of every
    /// rate rule (the login throttle, the refresh limit), given at once and never by sleeping.
    /// N is `seconds` rounded up to a whole second, at least 1: a client told 0 would come
    /// straight back.
    static func tooMany(_ what: String, retryAfter seconds: Double) -> Abort {
        let whole = max(1, Int(seconds.rounded(.up)))
        return Abort(.tooManyRequests, reason: "Too many \(what); try again in \(whole) seconds.", headers: [
            "Retry-After": "\(whole)",
        ])
    }
}
