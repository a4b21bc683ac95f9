/// What a handler answers: status, headers, body bytes. The server's own `HTTPResponse`
/// value, so the framework hands it to the server without a copy or a conversion.
public typealias Response = HTTPResponse

extension HTTPResponse {
    /// A plain-text response.
    public init(status: HTTPStatus = .ok, text: String) {
        self.init(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
