import OneTimePasswords
import XCTest

final class Base32Tests: XCTestCase {
    /// RFC 4648 §10.
    private let vectors = [
        ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="),
        ("foob", "MZXW6YQ="), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    func testRFC4648Vectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base32.encode(Array(plain.utf8), padding: true), encoded)
            XCTAssertEqual(Base32.decode(encoded), Array(plain.utf8), encoded)
        }
    }

    func testUnpaddedByDefault() {
        XCTAssertEqual(Base32.encode(Array("foobar".utf8)), "MZXW6YTBOI")
        XCTAssertEqual(Base32.decode("MZXW6YTBOI"), Array("foobar".utf8))
        XCTAssertEqual(Base32.decode("mzxw6ytboi"), Array("foobar".utf8), "lowercase, as people type it")
    }

    func testRoundTripOfSecrets() {
        for count in 0...25 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            XCTAssertEqual(Base32.decode(Base32.encode(bytes)), bytes)
        }
    }

    func testInvalidRefused() {
        for text in ["M", "MZX", "MZXW6Y", "MZ1Q", "MZ8Q", "MZ Q", "MZ=Q", "MZ√Q"] {
            XCTAssertNil(Base32.decode(text), text)
        }
        XCTAssertNil(Base32.decode("MZ"), "non-zero leftover bits: Z sets bits past the byte")
        XCTAssertEqual(Base32.decode("MY"), [0x66])
    }
}
