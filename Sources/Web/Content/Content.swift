import Foundation

/// A `Codable` value that travels as JSON, both as a request body and as a response.
/// Conforming is all a model needs to be returned from a handler.
public protocol Content: Codable, Sendable, ResponseEncodable {}

extension Content {
    public func encodeResponse(for request: Request) throws -> Response {
        try JSON.response(self)
    }
}

extension Array: ResponseEncodable where Element: Content {
    public func encodeResponse(for request: Request) throws -> Response {
        try JSON.response(self)
    }
}

/// A `Content` value with a status other than 200: `return Created(acronym)` style.
public struct ContentResponse<Value: Encodable>: ResponseEncodable {
    public var status: HTTPStatus
    public var value: Value

    public init(_ value: Value, status: HTTPStatus) {
        self.value = value
        self.status = status
    }

    public func encodeResponse(for request: Request) throws -> Response {
        var response = try JSON.response(value)
        response.status = status
        return response
    }
}

/// The one place JSON is encoded and decoded, so every body has the same format.
enum JSON {
    static let contentType = "application/json; charset=utf-8"

    static func response(_ value: some Encodable) throws -> Response {
        Response(status: .ok, headers: ["Content-Type": contentType], body: try encode(value))
    }

    /// The streaming encoder, or `JSONEncoder` for the rare type it cannot stream.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        do {
            return try JSONStreamEncoder.encode(value)
        } catch is JSONStreamEncoder.OutOfOrder {
            return Array(try JSONEncoder().encode(value))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
