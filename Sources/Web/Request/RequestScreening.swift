/// What every request must pass before a handler sees it: input that no handler or
/// authenticator should ever have to defend against is refused once, here, with a 400 that
/// says what was wrong.
///
/// NUL is refused wherever a client can smuggle one past the parser (which already rejects
/// raw control bytes): percent-encoded in the query or a path segment, base64-encoded in
/// Basic credentials. C code further down (libpq, crypt) would silently cut the string there.
enum RequestScreening {
    /// The error to answer `request` with before routing, or nil when it may be routed.
    static func rejection(of request: Request) -> Abort? {
        // Two credentials leave "which one counts?" to whoever reads the header first; a
        // proxy and the app could disagree. Refuse instead of letting the first one win.
        if request.headers.count(of: "Authorization") > 1 {
            return Abort(.badRequest, reason: "Send at most one Authorization header.")
        }
        if request.headers.basicCredentialsContainNUL {
            return Abort(.badRequest, reason: "HTTP Basic credentials must not contain NUL.")
        }
        if let query = request.queryString, mayDecodeToNUL(query), let (name, _) = QueryParameters(query).pairHoldingNUL {
            // The client's name is echoed only when short and plain.
            let named = RequestID.isAcceptable(name) ? "Query parameter '\(name)'" : "A query parameter"
            return Abort(.badRequest, reason: "\(named) must not contain NUL.")
        }
        return nil
    }

    /// The error to answer with when a matched route's path parameters hold a NUL.
    static func rejection(of parameters: Parameters) -> Abort? {
        guard let name = parameters.nameOfValueContainingNUL else { return nil }
        return Abort(.badRequest, reason: "Path parameter '\(name)' must not contain NUL.")
    }

    /// A cheap pre-check, so the common request is not decoded twice: true when `text` holds
    /// `%00` or a NUL byte (an in-process request skips the parser's control-byte check).
    static func mayDecodeToNUL(_ text: Substring) -> Bool {
        var previous: (UInt8, UInt8) = (0xFF, 0xFF)
        for byte in text.utf8 {
            if byte == 0 || (byte == UInt8(ascii: "0") && previous == (UInt8(ascii: "%"), UInt8(ascii: "0"))) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
