import Foundation
import XCTest

// The token lifecycle as an external client sees it (issue 8's contract): answers decoded into
// the tests' own structs, never the server's types, so the tests check the wire, not the code.
// (Users and errors decode into TILWire's `PublicUser` and this file's `ErrorAnswer`.)

/// The body of a login or refresh answer.
struct LoginAnswer: Decodable {
    struct UserID: Decodable { var id: UUID }
    var id: UUID
    var value: String
    var user: UserID
    var expiresAt: String
    var refreshToken: String
    var refreshExpiresAt: String
    var scopes: [String]
    var tokenType: String
}

/// One entry of `GET /api/users/me/sessions`.
struct SessionEntry: Decodable {
    var id: UUID
    var createdAt: String
    var lastUsedAt: String?
    var expiresAt: String
    var refreshExpiresAt: String
    var userAgent: String?
    var scopes: [String]
    var current: Bool
}

/// Every JSON error: `{"error": true, "reason": "..."}`.
struct ErrorAnswer: Decodable {
    var error: Bool
    var reason: String
}

/// The four scopes a login grants unless `?scope=` asks for fewer.
let allScopes: Set<String> = ["acronyms:write", "categories:write", "users:write", "account"]

/// An ISO 8601 time as the contract writes it ("2026-11-23T12:00:00Z").
func contractDate(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Date {
    let date = try? Date(text, strategy: .iso8601)
    return try XCTUnwrap(date, "not an ISO 8601 time: \(text)", file: file, line: line)
}
