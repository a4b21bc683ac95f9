import Crypt
import Foundation
import XCTest
@testable import JOSE

/// Signing and verifying compact JWS with both algorithms, and every refusal `JWS.verify` owes:
/// tampering, `alg: none`, an algorithm not allowed, an unknown kid, `crit`.
final class JWSTests: XCTestCase {
    static let rsa = try! SigningKey.generate(.rs256)
    static let ec = try! SigningKey.generate(.es256)
    static let keys = JWKSet(keys: [rsa.publicJWK, ec.publicJWK])
    static let claims = Data(#"{"iss":"https://til.example","sub":"8d3b","aud":"app","exp":1900000000,"nonce":"n-0S6_WzA2Mj"}"#.utf8)

    func testRoundTripsForBothAlgorithms() throws {
        for key in [Self.rsa, Self.ec] {
            let compact = try key.sign(payload: Self.claims)
            XCTAssertEqual(try JWS.verify(compact, keys: Self.keys, allowed: [.rs256, .es256]), Self.claims)
            let header = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(Base64URL.decode(String(compact.split(separator: ".")[0])))))
            XCTAssertEqual(header as? [String: String], ["alg": key.algorithm.rawValue, "kid": key.kid, "typ": "JWT"])
        }
    }

    func testES256SignaturesAreRawRAndS() throws {
        for _ in 0..<20 {  // DER lengths vary with leading zeros; the raw form never does
            let compact = try Self.ec.sign(payload: Self.claims)
            XCTAssertEqual(Base64URL.decode(String(compact.split(separator: ".")[2]))?.count, 64)
        }
        let rsa = try Self.rsa.sign(payload: Self.claims)
        XCTAssertEqual(Base64URL.decode(String(rsa.split(separator: ".")[2]))?.count, 256)
    }

    func testTamperedPartsAreRefused() throws {
        for key in [Self.rsa, Self.ec] {
            let parts = try key.sign(payload: Self.claims).split(separator: ".").map(String.init)
            let otherPayload = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
            let otherHeader = Base64URL.encode(Array(#"{"alg":"\#(key.algorithm.rawValue)","kid":"\#(key.kid)"}"#.utf8))
            var signature = try XCTUnwrap(Base64URL.decode(parts[2]))
            signature[7] ^= 0x20
            for forged in [
                [parts[0], otherPayload, parts[2]], [otherHeader, parts[1], parts[2]], [parts[0], parts[1], Base64URL.encode(signature)],
            ] {
                XCTAssertThrowsError(try JWS.verify(forged.joined(separator: "."), keys: Self.keys, allowed: [.rs256, .es256])) {
                    XCTAssertEqual($0 as? JOSEError, .badSignature)
                }
            }
        }
    }

    func testAlgNoneAndAlgorithmsNotAllowedAreRefused() throws {
        let payload = Base64URL.encode(Array(Self.claims))
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"\#(Self.rsa.kid)"}"#.utf8)) + "." + payload + "."
        XCTAssertThrowsError(try JWS.verify(none, keys: Self.keys, allowed: [.rs256, .es256])) {
            XCTAssertEqual($0 as? JOSEError, .algorithmNotAllowed("none"))
        }
        let hs256 = Base64URL.encode(Array(#"{"alg":"HS256","kid":"\#(Self.rsa.kid)"}"#.utf8)) + "." + payload + ".c2lnbmF0dXJl"
        XCTAssertThrowsError(try JWS.verify(hs256, keys: Self.keys, allowed: [.rs256, .es256]))
        let es256 = try Self.ec.sign(payload: Self.claims)
        XCTAssertThrowsError(try JWS.verify(es256, keys: Self.keys, allowed: [.rs256])) {
            XCTAssertEqual($0 as? JOSEError, .algorithmNotAllowed("ES256"))
        }
    }

    func testAKidNotInTheSetIsRefused() throws {
        let stranger = try SigningKey.generate(.rs256)
        XCTAssertThrowsError(try JWS.verify(try stranger.sign(payload: Self.claims), keys: Self.keys, allowed: [.rs256])) {
            XCTAssertEqual($0 as? JOSEError, .unknownKey(stranger.kid))
        }
        // A header claiming RS256 under the EC key's kid: the key type does not match the algorithm.
        let confused = try Self.rsa.sign(
            header: Data(#"{"alg":"RS256","kid":"\#(Self.ec.kid)"}"#.utf8), payload: Self.claims)
        XCTAssertThrowsError(try JWS.verify(confused, keys: Self.keys, allowed: [.rs256, .es256]))
        let unnamed = try Self.rsa.sign(header: Data(#"{"alg":"RS256"}"#.utf8), payload: Self.claims)
        XCTAssertThrowsError(try JWS.verify(unnamed, keys: Self.keys, allowed: [.rs256])) { XCTAssertEqual($0 as? JOSEError, .unknownKey("")) }
    }

    func testCriticalExtensionsAndMalformedInputAreRefused() throws {
        let critical = try Self.rsa.sign(
            header: Data(#"{"alg":"RS256","kid":"\#(Self.rsa.kid)","crit":["exp"],"exp":1}"#.utf8), payload: Self.claims)
        XCTAssertThrowsError(try JWS.verify(critical, keys: Self.keys, allowed: [.rs256])) {
            XCTAssertEqual($0 as? JOSEError, .unsupportedCritical)
        }
        let valid = try Self.rsa.sign(payload: Self.claims)
        for malformed in [
            "", "a.b", "a.b.c.d", valid + "=", valid.replacingOccurrences(of: ".", with: ".+", options: [], range: nil),
            Base64URL.encode(Array("[1]".utf8)) + ".e30.", Base64URL.encode(Array(#"{"alg":7}"#.utf8)) + ".e30.",
            String(repeating: "a", count: JWS.maxLength) + ".e30.",
        ] {
            XCTAssertThrowsError(try JWS.verify(malformed, keys: Self.keys, allowed: [.rs256, .es256]), malformed.prefix(40).description)
        }
    }

    func testPrivateKeysRoundTripThroughDER() throws {
        for key in [Self.rsa, Self.ec] {
            let restored = try SigningKey(privateDER: try key.privateDER(), algorithm: key.algorithm, kid: key.kid)
            XCTAssertEqual(restored.publicJWK, key.publicJWK)
            XCTAssertEqual(try JWS.verify(try restored.sign(payload: Self.claims), keys: Self.keys, allowed: [key.algorithm]), Self.claims)
        }
        // The wrong algorithm for the DER, or bytes that are no key at all, are refused.
        XCTAssertThrowsError(try SigningKey(privateDER: try Self.ec.privateDER(), algorithm: .rs256, kid: "x"))
        XCTAssertThrowsError(try SigningKey(privateDER: try Self.rsa.privateDER(), algorithm: .es256, kid: "x"))
        XCTAssertThrowsError(try SigningKey(privateDER: Array(repeating: 0x30, count: 40), algorithm: .rs256, kid: "x"))
    }

    func testPublicKeysThatAreNotWhatTheAlgorithmNeedsAreRefused() throws {
        var offCurve = Self.ec.publicJWK
        offCurve.y = offCurve.x  // (x, x) is not on P-256
        XCTAssertThrowsError(try offCurve.publicKey(for: .es256))
        var weak = Self.rsa.publicJWK
        weak.n = Base64URL.encode(Array(repeating: 0xC3, count: 128))  // 1024 bits
        XCTAssertThrowsError(try weak.publicKey(for: .rs256))
        XCTAssertThrowsError(try Self.rsa.publicJWK.publicKey(for: .es256))
    }

    func testECDSADERConversionRoundTrips() throws {
        let raw = Array(repeating: UInt8(0), count: 31) + [1] + [0x80] + Array(repeating: UInt8(0xFF), count: 31)
        let der = try XCTUnwrap(ECDSASignature.der(fromRaw: raw))
        XCTAssertEqual(der.first, 0x30, "a DER SEQUENCE")
        XCTAssertEqual(try ECDSASignature.raw(fromDER: der), raw)
        XCTAssertNil(ECDSASignature.der(fromRaw: Array(repeating: 1, count: 63)))
        XCTAssertThrowsError(try ECDSASignature.raw(fromDER: [0x30, 0x03, 0x02, 0x01]))
    }
}
