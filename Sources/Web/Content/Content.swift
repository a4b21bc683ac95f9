import Foundation

/// A `Codable` value that travels as JSON, both as a request body and as a response.
/// Conforming is all a model needs to be returned from a handler.
public protocol Content: Codable, Sendable, ResponseEncodable {
    /// Writes the value as JSON. The default streams `encode(to:)`; a model on a hot path
    /// may write its fields directly (its output must equal the default's — test it).
    func writeJSON(to json: JSONSink) throws
}

extension Content {
    public func writeJSON(to json: JSONSink) throws {
        try json.encodeValue(self)
    }

    public func encodeResponse(for request: Request) throws -> Response {
        JSON.response(bytes: try JSON.fallingBack(self) { try JSONStreamEncoder.encode(content: self) })
    }
}

extension Array: ResponseEncodable where Element: Content {
    public func encodeResponse(for request: Request) throws -> Response {
        JSON.response(bytes: try JSON.fallingBack(self) { try JSONStreamEncoder.encode(contents: self) })
    }
}

extension Response {
    /// A 200 JSON response, encoded now: for answers that never change, built once at boot.
    public static func json(_ value: some Encodable) throws -> Response {
        try JSON.response(value)
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
        response(bytes: try encode(value))
    }

    static func response(bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: ["Content-Type": contentType], body: bytes)
    }

    /// The streaming encoder, or `JSONEncoder` for the rare type it cannot stream.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        try fallingBack(value) { try JSONStreamEncoder.encode(value) }
    }

    /// Runs a streaming `encode`; if the value fills its containers out of order, encodes it
    /// with `JSONEncoder` instead.
    static func fallingBack(_ value: some Encodable, _ encode: () throws -> [UInt8]) throws -> [UInt8] {
        do {
            return try encode()
        } catch is JSONStreamEncoder.OutOfOrder {
            return Array(try JSONEncoder().encode(value))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
