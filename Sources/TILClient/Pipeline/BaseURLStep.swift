import Foundation

/// Points a request at the server and speaks JSON: the absolute URL (path and query, values
/// percent-encoded), `Accept`, `Content-Type` for a body, `User-Agent`. A request that comes
/// with its own URL (a next-page `Link`) must stay on the server: a bearer token never
/// follows a link elsewhere.
struct BaseURLStep: RequestStep {
    let server: URL
    let userAgent: String

    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        var request = request
        if let url = request.url {
            guard let origin = Origin(url), origin == Origin(server) else {
                throw TILError.invalidResponse("The server pointed to \(url.absoluteString), outside \(server.absoluteString).")
            }
        } else {
            request.url = try url(for: request)
        }
        request.headers["Accept"] = request.headers["Accept"] ?? "application/json"
        request.headers["User-Agent"] = request.headers["User-Agent"] ?? userAgent
        if request.body != nil { request.headers["Content-Type"] = request.headers["Content-Type"] ?? "application/json" }
        return try await next(request)
    }

    private func url(for request: APIRequest) throws -> URL {
        var text = server.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += request.path.split(separator: "/", omittingEmptySubsequences: true)
            .map { "/" + Self.percentEncoded(String($0)) }.joined()
        if !request.query.isEmpty {
            text += "?" + request.query.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw TILError.invalidArgument("Not a valid URL: \(text)") }
        return url
    }

    /// Everything but RFC 3986's unreserved characters, so `+`, `&`, `/` and `%` in a search
    /// term or an id arrive as typed.
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
