import Crypt
import XCTest

final class ConstantTimeTests: XCTestCase {
    func testEquals() {
        XCTAssertTrue(ConstantTime.equals("secret", "secret"))
        XCTAssertFalse(ConstantTime.equals("secret", "secreT"), "differs in the last byte")
        XCTAssertFalse(ConstantTime.equals("secret", "Secret"), "differs in the first byte")
        XCTAssertFalse(ConstantTime.equals("secret", "secret2"), "longer")
        XCTAssertFalse(ConstantTime.equals("secret", ""), "empty against non-empty")
        XCTAssertTrue(ConstantTime.equals("", ""))
        XCTAssertFalse(ConstantTime.equals("é", "e\u{301}"), "bytes, not canonical equivalence")
    }

    func testByteCollectionsOfAnyKind() {
        XCTAssertTrue(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        XCTAssertFalse(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        XCTAssertTrue(ConstantTime.equals([0, 1, 2, 3][1...] as ArraySlice<UInt8>, [1, 2, 3] as [UInt8]))
        XCTAssertTrue(ConstantTime.equals("abc".utf8, [0x61, 0x62, 0x63] as [UInt8]))
        XCTAssertFalse(ConstantTime.equals([UInt8](repeating: 0, count: 4096), [UInt8](repeating: 0, count: 4095) + [1]))
    }
}
