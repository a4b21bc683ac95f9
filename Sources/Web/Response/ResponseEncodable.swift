/// Anything a route handler may return: it knows how to become a `Response`.
public protocol ResponseEncodable: SendableMetatype {
    func encodeResponse(for request: Request) throws -> Response
}

extension Response: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { self }
}

/// A bare status: `return .noContent`.
extension HTTPStatus: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { Response(status: self) }
}

extension String: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { Response(text: self) }
}
