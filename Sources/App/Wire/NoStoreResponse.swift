import Foundation
import Web

extension Token {
    /// As a response nobody may store: a token must not sit in a shared or browser cache
    /// (RFC 6749 §5.1).
    func noStoreResponse(for request: Request) throws -> Response {
        try encodeResponse(for: request).notStored()
    }
}

extension Response {
    /// This response marked for no cache to keep: it holds a secret (a token, a client secret).
    func notStored() -> Response {
        var response = self
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "Pragma", value: "no-cache")
        return response
    }
}
