import Foundation
import Web
import XCTest
@testable import App

/// Hand-written `writeJSON` must say exactly what the Codable encoding says.
final class ModelJSONTests: XCTestCase {
    private func assertMatchesCodable<T: Content>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let sink = JSONSink()
        try value.writeJSON(to: sink)
        let fast = try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? NSDictionary
        let codable = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? NSDictionary
        XCTAssertNotNil(fast, file: file, line: line)
        XCTAssertEqual(fast, codable, file: file, line: line)
    }

    func testModelsWriteTheirCodableJSON() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t control \u{01} unicode é 🎉"
        try assertMatchesCodable(Acronym(id: UUID(), short: tricky, long: "Long", user: UserReference(id: UUID())))
        try assertMatchesCodable(App.Category(id: UUID(), name: tricky))
        try assertMatchesCodable(User.Public(id: UUID(), name: tricky, username: "u"))
        try assertMatchesCodable(Token(
            id: UUID(), value: "abc", user: UserReference(id: UUID()), expiresAt: Date(), refreshToken: "def",
            refreshExpiresAt: Date(), scopes: Scope.known))
        try assertMatchesCodable(SessionInfo(
            id: UUID(), createdAt: Date(), lastUsedAt: Date(), expiresAt: Date(), refreshExpiresAt: Date(), userAgent: nil,
            scopes: [.account], current: true))
    }
}
