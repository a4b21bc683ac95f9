import Crypt
import Foundation
import XCTest

final class SecureRandomTests: XCTestCase {
    /// RFC 9562 §5.4: version 4 in the 13th hex digit, variant 10 in the 17th; the rest random.
    func testUUIDsAreVersion4VariantRFCAndDistinct() {
        let ids = (0..<1000).map { _ in SecureRandom.uuid() }
        XCTAssertEqual(Set(ids).count, ids.count)
        for id in ids {
            let text = Array(id.uuidString)
            XCTAssertEqual(text[14], "4", id.uuidString)
            XCTAssertTrue("89AB".contains(text[19]), id.uuidString)
            XCTAssertEqual(UUID(uuidString: id.uuidString), id)
        }
        // Every other bit varies: OR-ing all ids sets them, AND-ing clears them.
        let bytes = ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0) } }
        let ored = bytes.reduce([UInt8](repeating: 0, count: 16)) { zip($0, $1).map { $0 | $1 } }
        let anded = bytes.reduce([UInt8](repeating: 0xFF, count: 16)) { zip($0, $1).map { $0 & $1 } }
        XCTAssertEqual(ored, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x4F, 0xFF, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(anded, [0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0])
    }

    func testTokensAreLongRandomAndURLSafe() {
        let tokens = (0..<1000).map { _ in SecureRandom.token() }
        XCTAssertEqual(Set(tokens).count, tokens.count)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for token in tokens {
            XCTAssertEqual(token.utf8.count, 43, token)
            XCTAssertTrue(token.utf8.allSatisfy(alphabet.contains), token)
        }
        // 1000 × 43 characters should use all 64 symbols: no stuck bits.
        XCTAssertEqual(Set(tokens.joined().utf8), alphabet)
    }

    func testBytes() {
        XCTAssertEqual(SecureRandom.bytes(count: 0), [])
        XCTAssertEqual(SecureRandom.bytes(count: 1000).count, 1000)
        XCTAssertNotEqual(SecureRandom.bytes(count: 16), SecureRandom.bytes(count: 16))
    }

    func testBase64URLAgainstRFC4648Vectors() {
        XCTAssertEqual(Base64URL.encode(Array("".utf8)), "")
        XCTAssertEqual(Base64URL.encode(Array("f".utf8)), "Zg")
        XCTAssertEqual(Base64URL.encode(Array("fo".utf8)), "Zm8")
        XCTAssertEqual(Base64URL.encode(Array("foo".utf8)), "Zm9v")
        XCTAssertEqual(Base64URL.encode(Array("foob".utf8)), "Zm9vYg")
        XCTAssertEqual(Base64URL.encode(Array("fooba".utf8)), "Zm9vYmE")
        XCTAssertEqual(Base64URL.encode(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(Base64URL.encode([0xFB, 0xFF]), "-_8")
        XCTAssertEqual(Base64URL.encode([0xFF, 0xFF, 0xFF]), "____")
        XCTAssertEqual(Base64URL.encode([0, 0, 0, 0]), "AAAAAA")
    }

    func testBase64URLDecodesOnlyCanonicalText() {
        for bytes in [[], Array("f".utf8), Array("fo".utf8), Array("foobar".utf8), [0xFB, 0xFF], [0, 0, 0, 0]] as [[UInt8]] {
            XCTAssertEqual(Base64URL.decode(Base64URL.encode(bytes)), bytes)
        }
        XCTAssertEqual(Base64URL.decode("-_8"), [0xFB, 0xFF])
        XCTAssertNil(Base64URL.decode("Zm9v="), "padding")
        XCTAssertNil(Base64URL.decode("Zm+v"), "base64, not base64url")
        XCTAssertNil(Base64URL.decode("Z"), "a length no encoding has")
        XCTAssertNil(Base64URL.decode("Zh"), "unused bits set")
    }
}
