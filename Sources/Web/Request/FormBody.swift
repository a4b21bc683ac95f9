/// HTML forms and OAuth's token, revocation and introspection endpoints send their fields as
/// `application/x-www-form-urlencoded`: the query string's syntax, in the body.
extension Request {
    /// The body's fields when the request says it is form-encoded (parameters such as
    /// `charset` ignored); nil for any other content type, so a JSON body is never read as one.
    public var form: QueryParameters? {
        guard let type = headers["Content-Type"],
            let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first,
            String(mediaType.trimmingCharacters(in: " \t")).equalsASCIICaseInsensitive("application/x-www-form-urlencoded")
        else { return nil }
        return QueryParameters(Substring(decoding: body, as: UTF8.self))
    }
}
