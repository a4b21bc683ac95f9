extension OpenAPIDocument {
    /// An operation's error answers as `responses` members, for the fragments to interpolate:
    /// each status refers to its shared response in `components/responses` (`400` →
    /// `BadRequest`), so an operation lists the statuses it can answer and nothing else.
    static func errorResponses(_ statuses: Int...) -> String {
        statuses.map { status in
            guard let name = sharedErrorResponses[status] else {
                preconditionFailure("no shared OpenAPI response for status \(status)")
            }
            return ##""\##(status)": {"$ref": "#/components/responses/\##(name)"}"##
        }.joined(separator: ",\n")
    }

    /// The error statuses `components/responses` describes, by the name it gives each.
    private static let sharedErrorResponses = [
        400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 409: "Conflict",
        413: "ContentTooLarge", 415: "UnsupportedMediaType", 429: "TooManyRequests", 503: "ServiceUnavailable",
    ]
}
