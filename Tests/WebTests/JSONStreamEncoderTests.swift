import Foundation
@testable import Web
import XCTest

/// The streaming encoder must produce what `JSONEncoder` produces (compared as parsed JSON).
final class JSONStreamEncoderTests: XCTestCase {
    struct Owner: Codable { var id: UUID }
    struct Acronym: Codable {
        var id: UUID
        var short: String
        var long: String
        var user: Owner
        var note: String?
        var score: Double
        var tags: [String]
        var counts: [String: Int]
        var flag: Bool
        var when: Date
        var blob: Data
    }

    /// Hand-written conformance using nested containers, written in order.
    struct Nested: Encodable {
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: AnyKey.self)
            var inner = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("inner"))
            try inner.encode(1, forKey: AnyKey("a"))
            var list = outer.nestedUnkeyedContainer(forKey: AnyKey("list"))
            try list.encode("x")
            try list.encodeNil()
            try outer.encode(true, forKey: AnyKey("last"))
        }
    }

    /// Goes back to an earlier container: must fall back, not produce broken JSON.
    struct OutOfOrder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: AnyKey.self)
            var first = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("first"))
            var second = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("second"))
            try second.encode(2, forKey: AnyKey("b"))
            try first.encode(1, forKey: AnyKey("a"))
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private func assertSameJSON(_ value: some Encodable, file: StaticString = #filePath, line: UInt = #line) throws {
        let ours = try JSON.encode(value)
        let foundation = try JSONEncoder().encode(value)
        let a = try JSONSerialization.jsonObject(with: Data(ours), options: [.fragmentsAllowed]) as? NSObject
        let b = try JSONSerialization.jsonObject(with: foundation, options: [.fragmentsAllowed]) as? NSObject
        XCTAssertEqual(a, b, "\(String(decoding: ours, as: UTF8.self)) != \(String(decoding: foundation, as: UTF8.self))", file: file, line: line)
    }

    func testModelsMatchFoundation() throws {
        let acronym = Acronym(
            id: UUID(), short: "OMG \"quoted\" \\ / \n\t\u{01} café 🎉", long: "Oh My God", user: Owner(id: UUID()),
            note: nil, score: 2.5, tags: ["a", "b"], counts: ["x": 1], flag: true,
            when: Date(timeIntervalSinceReferenceDate: 12345.5), blob: Data([0, 1, 2, 255]))
        try assertSameJSON(acronym)
        try assertSameJSON([acronym, acronym])
        try assertSameJSON([Acronym]())
        try assertSameJSON(["plain", "strings"])
        try assertSameJSON(42)
        try assertSameJSON(Nested())
    }

    func testUUIDIsUppercaseCanonical() throws {
        let id = UUID()
        XCTAssertEqual(String(decoding: try JSON.encode(id), as: UTF8.self), "\"\(id.uuidString)\"")
    }

    func testOutOfOrderEncodingFallsBackToFoundation() throws {
        XCTAssertThrowsError(try JSONStreamEncoder.encode(OutOfOrder()))
        try assertSameJSON(OutOfOrder())
    }

    func testNonFiniteNumberThrows() {
        XCTAssertThrowsError(try JSON.encode([Double.nan]))
    }
}
