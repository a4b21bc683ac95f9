import Crypt
import Foundation
import XCTest
@testable import JOSE

/// The published examples: RFC 7515 Appendix A.2 (RS256) and A.3 (ES256) verify with their
/// public keys, and RFC 7638 §3.1's key has its published thumbprint.
final class RFCVectorTests: XCTestCase {
    /// RFC 7515's example payload: {"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}.
    static let payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

    static let a2Key = JWK(
        kty: "RSA",
        n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMs"
            + "D1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdV"
            + "MTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB")
    static let a2Signature =
        "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjb"
        + "KBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZES"
        + "c6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    static let a3Key = JWK(kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")
    static let a3Signature = "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    func testRFC7515AppendixA2RS256Verifies() throws {
        // The example's header is {"alg":"RS256"} without a kid, which `JWS.verify` requires:
        // add the kid in the set and check the same signature over the example's own bytes.
        XCTAssertTrue(try Self.verifies(header: "eyJhbGciOiJSUzI1NiJ9", signature: Self.a2Signature, key: Self.a2Key, .rs256))
        XCTAssertFalse(try Self.verifies(header: "eyJhbGciOiJSUzI1NiJ9", signature: Self.a3Signature, key: Self.a2Key, .rs256))
    }

    func testRFC7515AppendixA3ES256VerifiesFromRawSignature() throws {
        XCTAssertEqual(Base64URL.decode(Self.a3Signature)?.count, 64, "R ‖ S, not DER")
        XCTAssertTrue(try Self.verifies(header: "eyJhbGciOiJFUzI1NiJ9", signature: Self.a3Signature, key: Self.a3Key, .es256))
        var flipped = try XCTUnwrap(Base64URL.decode(Self.a3Signature))
        flipped[40] ^= 1
        XCTAssertFalse(try Self.verifies(header: "eyJhbGciOiJFUzI1NiJ9", signature: Base64URL.encode(flipped), key: Self.a3Key, .es256))
    }

    func testRFC7638Section3Point1Thumbprint() throws {
        let key = JWK(
            kty: "RSA", alg: "RS256", kid: "2011-04-29",
            n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            e: "AQAB")
        XCTAssertEqual(try key.thumbprint(), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    func testGeneratedKeysAreNamedByTheirThumbprint() throws {
        for algorithm in JWSAlgorithm.allCases {
            let key = try SigningKey.generate(algorithm)
            XCTAssertEqual(key.kid, try key.publicJWK.thumbprint())
            XCTAssertEqual(key.publicJWK.alg, algorithm.rawValue)
            XCTAssertEqual(key.publicJWK.use, "sig")
            XCTAssertEqual(key.kid.count, 43, "base64url of a SHA-256")
        }
    }

    /// True when `signature` is `key`'s over `header.payload`, checked by the JWS code itself
    /// (the example's JWS with `kid` added to the key instead of the header is not possible, so
    /// this takes the signing input apart the way `JWS.verify` does).
    private static func verifies(header: String, signature: String, key: JWK, _ algorithm: JWSAlgorithm) throws -> Bool {
        let publicKey = try key.publicKey(for: algorithm)
        let input = Array((header + "." + payload).utf8)
        let raw = try XCTUnwrap(Base64URL.decode(signature))
        let verifiable = algorithm == .es256 ? try XCTUnwrap(ECDSASignature.der(fromRaw: raw)) : raw
        return publicKey.verifySHA256(verifiable, over: input)
    }
}
