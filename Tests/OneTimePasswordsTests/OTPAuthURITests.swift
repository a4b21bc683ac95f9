import OneTimePasswords
import XCTest

final class OTPAuthURITests: XCTestCase {
    private let rfcSecret = Array("12345678901234567890".utf8)

    func testASCIIUsername() {
        XCTAssertEqual(
            OTPAuthURI.totp(username: "alice", secret: rfcSecret),
            "otpauth://totp/TIL:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=TIL")
    }

    /// The Key Uri Format percent-encodes the label's UTF-8; a `:` or `?` in a name stays in it.
    func testNonASCIIAndReservedCharacters() {
        XCTAssertEqual(
            OTPAuthURI.totp(username: "zoë", secret: rfcSecret),
            "otpauth://totp/TIL:zo%C3%AB?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=TIL")
        XCTAssertEqual(
            OTPAuthURI.totp(username: "a b:c?d&e/f", secret: [0xFF]),
            "otpauth://totp/TIL:a%20b%3Ac%3Fd%26e%2Ff?secret=74&issuer=TIL")
        XCTAssertEqual(
            OTPAuthURI.totp(username: "日本", secret: rfcSecret).split(separator: "?")[0],
            "otpauth://totp/TIL:%E6%97%A5%E6%9C%AC")
    }

    func testSecretIsUnpaddedBase32() throws {
        let secret = TOTPSecret.generate()
        let uri = OTPAuthURI.totp(username: "alice", secret: secret)
        let query = try XCTUnwrap(uri.split(separator: "?").last)
        let encoded = try XCTUnwrap(query.split(separator: "&").first { $0.hasPrefix("secret=") }?.dropFirst(7))
        XCTAssertEqual(encoded.count, 32, "160 bits are exactly 32 symbols, no padding")
        XCTAssertFalse(encoded.contains("="))
        XCTAssertEqual(Base32.decode(String(encoded)), secret)
    }
}
