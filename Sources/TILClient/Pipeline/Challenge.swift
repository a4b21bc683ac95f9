/// A `WWW-Authenticate` challenge (RFC 9110 §11.6.1): its scheme and auth-params, e.g.
/// `Bearer realm="TIL", error="invalid_token", error_description="The access token expired."`.
/// TIL sends one challenge per answer; only the first is read.
struct Challenge {
    var scheme: String
    /// Parameter names lowercased.
    var parameters: [String: String] = [:]

    init(parsing header: String) {
        var scanner = HeaderScanner(header)
        scheme = scanner.token()
        while !scanner.isAtEnd {
            let name = scanner.token().lowercased()
            guard !name.isEmpty, scanner.take("=") else { break }
            parameters[name] = scanner.value()
            guard scanner.take(",") else { break }
        }
    }
}
