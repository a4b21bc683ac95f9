import XCTest
@testable import Crypt

/// AES-256-GCM at rest under a per-purpose HKDF key: what it seals opens only with the same
/// `SECRET_KEY`, purpose and associated data, and only unchanged.
final class AtRestCipherTests: XCTestCase {
    let secret = SecretKey(bytes: Array(0..<32))
    let plaintext = Array("-----a private key's DER-----".utf8)

    func testRoundTrip() throws {
        let cipher = AtRestCipher(secret: secret, purpose: "til signing keys v1")
        let sealed = cipher.seal(plaintext, binding: Array("kid-1".utf8))
        XCTAssertEqual(sealed.count, 1 + 12 + plaintext.count + 16)
        XCTAssertEqual(sealed.first, 1, "the version byte")
        XCTAssertEqual(try cipher.open(sealed, binding: Array("kid-1".utf8)), plaintext)
        XCTAssertEqual(try cipher.open(cipher.seal([], binding: []), binding: []), [], "empty plaintext")
    }

    func testEachSealHasItsOwnNonce() {
        let cipher = AtRestCipher(secret: secret, purpose: "p")
        let (first, second) = (cipher.seal(plaintext, binding: []), cipher.seal(plaintext, binding: []))
        XCTAssertNotEqual(first, second)
        XCTAssertNotEqual(first[1..<13], second[1..<13])
    }

    func testWrongKeyPurposeOrAssociatedDataIsRefused() {
        let cipher = AtRestCipher(secret: secret, purpose: "til signing keys v1")
        let sealed = cipher.seal(plaintext, binding: Array("kid-1".utf8))
        let otherSecret = AtRestCipher(secret: SecretKey(bytes: Array(1...32)), purpose: "til signing keys v1")
        let otherPurpose = AtRestCipher(secret: secret, purpose: "til totp secrets v1")
        XCTAssertThrowsError(try otherSecret.open(sealed, binding: Array("kid-1".utf8)))
        XCTAssertThrowsError(try otherPurpose.open(sealed, binding: Array("kid-1".utf8)))
        XCTAssertThrowsError(try cipher.open(sealed, binding: Array("kid-2".utf8)), "another row's value")
    }

    func testTamperedOrCutValuesAreRefused() {
        let cipher = AtRestCipher(secret: secret, purpose: "p")
        let sealed = cipher.seal(plaintext, binding: [])
        for index in [0, 5, 20, sealed.count - 1] {  // version, nonce, ciphertext, tag
            var tampered = sealed
            tampered[index] ^= 0x01
            XCTAssertThrowsError(try cipher.open(tampered, binding: []), "byte \(index)")
        }
        XCTAssertThrowsError(try cipher.open(Array(sealed.dropLast()), binding: []))
        XCTAssertThrowsError(try cipher.open(Array(sealed.prefix(20)), binding: []))
        XCTAssertThrowsError(try cipher.open([], binding: []))
    }

    /// RFC 5869 Appendix A.1.
    func testHKDFMatchesRFC5869() {
        let okm = HKDF.sha256(
            secret: Array(repeating: 0x0b, count: 22), salt: Array(0x00...0x0c), info: Array(0xf0...0xf9), length: 42)
        XCTAssertEqual(
            SHA256.hex(okm), "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    func testSecretKeySpellings() throws {
        let bytes = Array(UInt8(0)..<32)
        let hex = SHA256.hex(bytes)
        XCTAssertEqual(SecretKey(text: hex), SecretKey(bytes: bytes))
        XCTAssertEqual(SecretKey(text: hex.uppercased() + "\n"), SecretKey(bytes: bytes))
        XCTAssertEqual(SecretKey(text: Base64URL.encode(bytes)), SecretKey(bytes: bytes))
        XCTAssertEqual(SecretKey(text: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="), SecretKey(bytes: bytes), "standard, padded")
        let random = SecretKey.random()
        XCTAssertEqual(SecretKey(text: random.text), random)
        for bad in ["", "short", String(repeating: "ab", count: 31), Base64URL.encode(Array(repeating: 1, count: 31)), "é" + hex] {
            XCTAssertNil(SecretKey(text: bad), bad)
        }
    }
}
