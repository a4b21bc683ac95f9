import Foundation
import TILClient
import XCTest

/// PKCE's S256 (RFC 7636) and the ID-token checks (OpenID Connect Core §3.1.3.7), on values
/// built here: TILClient computes both without any library but Foundation.
final class ProofKeyAndIDTokenTests: XCTestCase {
    func testTheChallengeIsRFC7636AppendixBAndSHA256AcrossBlockBoundaries() throws {
        let rfc = try XCTUnwrap(ProofKey(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        XCTAssertEqual(rfc.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        // Lengths around SHA-256's padding edges (55/56 bytes, one and two blocks), computed by
        // Python's hashlib.
        let alphabet = String(repeating: "abcdefghijklmnopqrstuvwxyz0123456789-._~ABCDEFGHIJKLMNOPQRSTUVWXYZ", count: 3)
        let expected = [
            55: "pcTWXhaRh8KLOjGd6LyO-9TbjLhVAHrci6ybLHo4VVM", 56: "2g2JyD03TRilOct6SGS8PkctqaitlAJ1jxDoRVpTk2A",
            63: "BKiaZ59hUMXyInSut9kzuhIIiCgxsP3v6CpnFjkEOyY", 64: "rlMFeRw86_58zII_XM6NgUOAs1GD1xk1I0dDIIgXf4Q",
            119: "32jCHsGVaZn4Oc0dLaYMZXLuV-7L4EPHv0vingyEgNI", 128: "r0W3j0eBFgmnCIsVTryzFvOwmcULCA0U_RpELvG4BMo",
        ]
        for (length, challenge) in expected {
            XCTAssertEqual(try XCTUnwrap(ProofKey(verifier: String(alphabet.prefix(length)))).challenge, challenge, "\(length)")
        }
        for bad in [String(repeating: "a", count: 42), String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+"] {
            XCTAssertNil(ProofKey(verifier: bad), bad)
        }
    }

    func testANewVerifierIs256RandomBitsInBase64URL() {
        let keys = (0..<64).map { _ in ProofKey() }
        XCTAssertEqual(Set(keys.map(\.verifier)).count, 64)
        for key in keys {
            XCTAssertEqual(key.verifier.utf8.count, 43)
            XCTAssertNotNil(ProofKey(verifier: key.verifier), "a verifier §4.1 allows")
            XCTAssertEqual(key.challenge.utf8.count, 43)
            XCTAssertTrue(key.challenge.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
    }

    func testAValidIDTokenGivesItsClaims() throws {
        let now = Date()
        let token = try IDToken(validating: jwt(claims(now: now, extra: ["preferred_username": "admin", "auth_time": 1_700_000_000])),
                                issuer: "https://til.example", clientID: "til-cli", nonce: "n-0S6", now: now)
        XCTAssertEqual(token.subject, "5D7A0B3E-6A3B-4C1E-9C55-2B0F1C2D3E4F")
        XCTAssertEqual(token.audience, ["til-cli"])
        XCTAssertEqual(token.preferredUsername, "admin")
        XCTAssertEqual(token.authTime, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(token.expiresAt.timeIntervalSince1970, (now.timeIntervalSince1970 + 300).rounded(.down), accuracy: 1)
        // aud as a one-element array, and azp naming this client, are the same thing.
        XCTAssertNoThrow(try IDToken(validating: jwt(claims(now: now, extra: ["aud": ["til-cli"], "azp": "til-cli"])),
                                     issuer: "https://til.example", clientID: "til-cli", nonce: "n-0S6", now: now))
    }

    func testEveryBrokenClaimIsRefusedSayingWhich() throws {
        let now = Date()
        let cases: [(String, String, String)] = [
            ("another issuer", jwt(claims(now: now, extra: ["iss": "https://evil.example"])), "iss"),
            ("another audience", jwt(claims(now: now, extra: ["aud": "other-app"])), "audience"),
            ("an extra audience", jwt(claims(now: now, extra: ["aud": ["til-cli", "other-app"]])), "audience"),
            ("another azp", jwt(claims(now: now, extra: ["azp": "other-app"])), "azp"),
            ("expired", jwt(claims(now: now, extra: ["exp": now.timeIntervalSince1970 - 3600])), "expired"),
            ("no exp", jwt(claims(now: now, removing: "exp")), "exp"),
            ("no iat", jwt(claims(now: now, removing: "iat")), "iat"),
            ("no sub", jwt(claims(now: now, removing: "sub")), "sub"),
            ("another nonce", jwt(claims(now: now, extra: ["nonce": "replayed"])), "nonce"),
            ("no nonce", jwt(claims(now: now, removing: "nonce")), "nonce"),
            ("two parts", "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0", "not a JWT"),
            ("not base64url", "eyJhbGciOiJSUzI1NiJ9.e+J/.c2ln", "not a JWT"),
            ("claims not an object", jwt(header: #"{"alg":"RS256"}"#, payload: "[1,2]"), "not a JWT"),
            ("too long", String(repeating: "a", count: 20_000), "longer"),
        ]
        for (name, token, words) in cases {
            XCTAssertThrowsError(try IDToken(validating: token, issuer: "https://til.example", clientID: "til-cli", nonce: "n-0S6", now: now), name) {
                guard case TILError.signInFailed(let error, let reason) = $0 else { return XCTFail("\(name): \($0)") }
                XCTAssertEqual(error, "invalid_id_token", name)
                XCTAssertTrue(reason.contains(words), "\(name): \(reason)")
            }
        }
    }

    /// The claims of a good token for til-cli at https://til.example, changed by `extra`.
    private func claims(now: Date, extra: [String: Any] = [:], removing: String? = nil) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "https://til.example", "sub": "5D7A0B3E-6A3B-4C1E-9C55-2B0F1C2D3E4F", "aud": "til-cli",
            "exp": (now.timeIntervalSince1970 + 300).rounded(.down), "iat": now.timeIntervalSince1970.rounded(.down), "nonce": "n-0S6",
        ]
        claims.merge(extra) { _, new in new }
        if let removing { claims[removing] = nil }
        return claims
    }

    private func jwt(_ claims: [String: Any]) -> String {
        jwt(header: #"{"alg":"RS256","kid":"k1"}"#, payload: String(decoding: try! JSONSerialization.data(withJSONObject: claims), as: UTF8.self))
    }

    /// A compact JWS whose signature is not checked (by design: see `IDToken`).
    private func jwt(header: String, payload: String) -> String {
        [header, payload, "signature"].map { part in
            Data(part.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }.joined(separator: ".")
    }
}
