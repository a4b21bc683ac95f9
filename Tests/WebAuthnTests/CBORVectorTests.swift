import WebAuthn
import WebAuthnTesting
import XCTest

/// RFC 8949 Appendix A's examples that lie inside WebAuthn's subset decode to their values, and
/// re-encode (canonically) to the same bytes.
final class CBORVectorTests: XCTestCase {
    static let vectors: [(String, CBORValue)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(UInt64.max)),
        ("3bffffffffffffffff", .negative(UInt64.max)), ("20", .int(-1)), ("29", .int(-10)), ("3863", .int(-100)),
        ("3903e7", .int(-1000)), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes([])),
        ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")),
        ("62225c", .text("\"\\")), ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")), ("64f0908591", .text("\u{10151}")),
        ("80", .array([])), ("83010203", .array([.int(1), .int(2), .int(3)])),
        ("8301820203820405", .array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])])),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .int($0) })),
        ("a0", .map([])), ("a201020304", .map([entry(.int(1), .int(2)), entry(.int(3), .int(4))])),
        ("a26161016162820203", .map([entry(.text("a"), .int(1)), entry(.text("b"), .array([.int(2), .int(3)]))])),
        ("826161a161626163", .array([.text("a"), .map([entry(.text("b"), .text("c"))])])),
        ("a56161614161626142616361436164614461656145", .map(["a", "b", "c", "d", "e"].map { entry(.text($0), .text($0.uppercased())) })),
    ]

    func testAppendixAVectorsDecodeAndReencode() throws {
        for (hex, expected) in Self.vectors {
            let bytes = try XCTUnwrap(Self.bytes(hex))
            XCTAssertEqual(try CBORDecoder.decode(bytes), expected, hex)
            XCTAssertEqual(CBORWriter.encode(expected), bytes, hex)
        }
    }

    func testIntegerAccessorAndLookups() throws {
        let map = try CBORDecoder.decode(try XCTUnwrap(Self.bytes("a3012620016161f5")))
        XCTAssertEqual(map[1]?.int, -7)
        XCTAssertEqual(map[-1]?.int, 1)
        XCTAssertEqual(map["a"], .bool(true))
        XCTAssertNil(map[2])
        XCTAssertNil(CBORValue.unsigned(UInt64.max).int)
    }

    func testPrefixDecodingReportsTheItemLength() throws {
        let bytes = try XCTUnwrap(Self.bytes("a1010200ff"))
        let (value, length) = try CBORDecoder.decodePrefix(bytes[...])
        XCTAssertEqual(value, .map([Self.entry(.int(1), .int(2))]))
        XCTAssertEqual(length, 3)
    }

    static func entry(_ key: CBORValue, _ value: CBORValue) -> CBORMapEntry { CBORMapEntry(key: key, value: value) }

    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }
}
