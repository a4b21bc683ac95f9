import Crypt
import XCTest

final class SHA256Tests: XCTestCase {
    /// FIPS 180-2 examples, and the NIST empty-message digest.
    func testFIPSVectors() {
        XCTAssertEqual(SHA256.hex(of: "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: ""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testDigestShapes() {
        let digest = SHA256.hash(Array("abc".utf8))
        XCTAssertEqual(digest.count, 32)
        XCTAssertEqual(digest.prefix(4), [0xBA, 0x78, 0x16, 0xBF])
        XCTAssertEqual(SHA256.hash("abc".utf8), digest, "any collection of bytes")
        XCTAssertEqual(SHA256.hex([0x00, 0x0F, 0xF0, 0xFF]), "000ff0ff")
    }
}
