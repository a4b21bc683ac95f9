import Crypt
import XCTest

final class HMACDigestTests: XCTestCase {
    /// RFC 2202 (HMAC-SHA-1) and RFC 4231 (HMAC-SHA-256), test cases 1 and 2.
    func testRFCVectors() {
        let key1 = [UInt8](repeating: 0x0B, count: 20), data1 = Array("Hi There".utf8)
        let key2 = Array("Jefe".utf8), data2 = Array("what do ya want for nothing?".utf8)
        XCTAssertEqual(SHA256.hex(HMACDigest.sha1(key: key1, message: data1)), "b617318655057264e28bc0b6fb378c8ef146be00")
        XCTAssertEqual(SHA256.hex(HMACDigest.sha1(key: key2, message: data2)), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        XCTAssertEqual(
            SHA256.hex(HMACDigest.sha256(key: key1, message: data1)),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(
            SHA256.hex(HMACDigest.sha256(key: key2, message: data2)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
