import WebAuthn
import XCTest

/// Every refusal of the strict decoder, each by its typed error; and no input traps it.
final class CBORRefusalTests: XCTestCase {
    func testEachRefusalHasItsError() throws {
        let cases: [(String, CBORError)] = [
            ("", .truncated), ("18", .truncated), ("1900", .truncated), ("4201", .truncated), ("8201", .truncated), ("a101", .truncated),
            ("0000", .trailingBytes),
            ("5f42010243030405ff", .indefiniteLength), ("7f657374726561646d696e67ff", .indefiniteLength), ("9fff", .indefiniteLength),
            ("bf6346756ef563416d7421ff", .indefiniteLength), ("ff", .indefiniteLength), ("1f", .indefiniteLength),
            ("1800", .nonShortestForm), ("1817", .nonShortestForm), ("190001", .nonShortestForm), ("1a0000ffff", .nonShortestForm),
            ("1b00000000ffffffff", .nonShortestForm), ("580161", .nonShortestForm), ("3800", .nonShortestForm),
            ("1c", .unsupported("reserved additional information")),
            ("c074323031332d30332d32315432303a30343a30305a", .unsupported("tag")), ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .unsupported("tag")),
            ("f90000", .unsupported("float")), ("fa47c35000", .unsupported("float")), ("fb3ff199999999999a", .unsupported("float")),
            ("f7", .unsupported("undefined")), ("f0", .unsupported("simple value")), ("f8ff", .unsupported("simple value")),
            ("a201020103", .duplicateMapKey), ("a2616101616102", .duplicateMapKey), ("a18001", .unsupportedMapKey), ("a1f501", .unsupportedMapKey),
            ("a1400102", .unsupportedMapKey), ("61ff", .invalidUTF8), ("62c328", .invalidUTF8),
            ("5a00010000", .tooLong), ("9a00010000", .tooLong), ("58ff", .truncated),
        ]
        for (hex, expected) in cases {
            let bytes = try XCTUnwrap(CBORVectorTests.bytes(hex), hex)
            XCTAssertThrowsError(try CBORDecoder.decode(bytes), hex) { XCTAssertEqual($0 as? CBORError, expected, hex) }
        }
    }

    func testDepthIsLimited() throws {
        let limits = CBORLimits()
        let deepest = [UInt8](repeating: 0x81, count: limits.maxDepth) + [0x00]
        XCTAssertNoThrow(try CBORDecoder.decode(deepest))
        let tooDeep = [UInt8](repeating: 0x81, count: limits.maxDepth + 1) + [0x00]
        XCTAssertThrowsError(try CBORDecoder.decode(tooDeep)) { XCTAssertEqual($0 as? CBORError, .tooDeep) }
        let hostile = [UInt8](repeating: 0xA1, count: 100_000)  // maps in maps, a stack bomb for a naive decoder
        XCTAssertThrowsError(try CBORDecoder.decode(hostile)) { XCTAssertEqual($0 as? CBORError, .tooDeep) }
    }

    func testItemCountMapSizeAndLengthAreLimited() throws {
        var limits = CBORLimits()
        limits.maxItems = 4
        XCTAssertNoThrow(try CBORDecoder.decode([0x83, 1, 2, 3], limits: limits))
        XCTAssertThrowsError(try CBORDecoder.decode([0x84, 1, 2, 3, 4], limits: limits)) { XCTAssertEqual($0 as? CBORError, .tooManyItems) }
        limits = CBORLimits()
        limits.maxMapEntries = 1
        XCTAssertThrowsError(try CBORDecoder.decode([0xA2, 1, 2, 3, 4], limits: limits)) { XCTAssertEqual($0 as? CBORError, .mapTooLarge) }
        limits = CBORLimits()
        limits.maxLength = 3
        XCTAssertNoThrow(try CBORDecoder.decode([0x43, 1, 2, 3], limits: limits))
        XCTAssertThrowsError(try CBORDecoder.decode([0x44, 1, 2, 3, 4], limits: limits)) { XCTAssertEqual($0 as? CBORError, .tooLong) }
        // An array claiming more elements than bytes remain is refused before allocating for them.
        XCTAssertThrowsError(try CBORDecoder.decode([0x99, 0x10, 0x00])) { XCTAssertEqual($0 as? CBORError, .truncated) }
    }

    /// A deterministic storm of random and mutated inputs: each decodes or throws a CBORError.
    func testArbitraryInputNeverTraps() throws {
        var generator = SplitMix64(seed: 20)
        let seed: [UInt8] = [0xA3, 0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E, 0x65, 0x01, 0x82, 0x20, 0x41, 0x00, 0x18, 0x20, 0xF6]
        for round in 0..<20_000 {
            var input = round.isMultiple(of: 2) ? seed : (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !input.isEmpty { input[Int.random(in: 0..<input.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            do { _ = try CBORDecoder.decode(input) } catch {}
        }
    }
}

/// A small seeded generator, so the storm is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
