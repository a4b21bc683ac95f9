import Foundation
import Web

extension Token {
    /// As a response nobody may store: a token must not sit in a shared or browser cache
    /// (RFC 6749 §5.1).
    func noStoreResponse(for request: Request) throws -> Response {
        var response = try encodeResponse(for: request)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "Pragma", value: "no-cache")
        return response
    }
}
