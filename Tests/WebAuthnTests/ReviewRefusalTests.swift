import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// Inputs the security review of the WebAuthn library found accepted where WebAuthn L3, RFC
/// 9053 or §8.2 says to refuse them, and behaviour it found correct but unproven.
final class ReviewRefusalTests: XCTestCase {
    /// §8.2: x5c's signature is checked "with the algorithm specified in alg"; a P-256
    /// certificate's ECDSA signature must not pass under alg EdDSA or RS256.
    func testPackedCertificateAlgMustFitTheCertificateKey() throws {
        for alg in [COSEAlgorithm.edDSA, .rs256] {
            var authenticator = try Ceremony.authenticator(.es256)
            let json = try authenticator.register(challenge: [5], userID: [9], attestation: .packedCertificate)
            let relabelled = try CeremonyTests.rewriteAttestation(json) { statement in
                .map(statement.entries!.map { $0.key == .text("alg") ? CBORMapEntry(key: $0.key, value: .int(alg.rawValue)) : $0 })
            }
            XCTAssertRefused(.attestationInvalid("x5c's certificate key is not for alg \(alg.rawValue)"),
                try Registration.verify(try RegistrationResponse(json: relabelled), challenge: [5], relyingParty: Ceremony.relyingParty))
        }
    }

    /// x5c holds DER certificates: a leaf with bytes after its DER is not one.
    func testPackedCertificateWithTrailingBytesIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let json = try authenticator.register(challenge: [5], userID: [9], attestation: .packedCertificate)
        let padded = try CeremonyTests.rewriteAttestation(json) { statement in
            .map(statement.entries!.map { entry in
                guard entry.key == .text("x5c"), case .array(let chain) = entry.value, let leaf = chain.first?.bytes else { return entry }
                return CBORMapEntry(key: entry.key, value: .array([.bytes(leaf + [0x00])]))
            })
        }
        XCTAssertRefused(.attestationInvalid("x5c's first certificate is not DER X.509"),
            try Registration.verify(try RegistrationResponse(json: padded), challenge: [5], relyingParty: Ceremony.relyingParty))
    }

    /// §7.1 step 10 / §7.2 step 14: a topOrigin means the ceremony ran in a cross-origin iframe,
    /// which TIL never expects, even when crossOrigin says false.
    func testTopOriginWithoutCrossOriginIsRefused() throws {
        let framed = Tampering {
            $0.alterClientDataJSON = { Array((String(decoding: $0.dropLast(), as: UTF8.self) + ",\"topOrigin\":\"https://evil.example\"}").utf8) }
        }
        var authenticator = try Ceremony.authenticator(.es256)
        XCTAssertRefused(.crossOrigin, try Ceremony.register(&authenticator, tampering: framed))
    }

    /// RFC 8017 §3.1 and FIPS 186-5: an RSA exponent is odd and at least 3. With e = 1 the
    /// "signature" is the padded message itself, which anyone can write.
    func testRSAExponentOneOrEvenIsRefused() throws {
        let modulus = [0xC5] + [UInt8](repeating: 0x5A, count: 254) + [0x01]
        for exponent: [UInt8] in [[1], [0, 1], [1, 0, 0]] {
            let key = CBORValue.map([
                CBORMapEntry(key: .int(1), value: .int(3)), CBORMapEntry(key: .int(3), value: .int(-257)),
                CBORMapEntry(key: .int(-1), value: .bytes(modulus)), CBORMapEntry(key: .int(-2), value: .bytes(exponent)),
            ])
            XCTAssertRefused(.malformed("an RSA key's exponent must be odd and at least 3"), try COSEKey(bytes: CBORWriter.encode(key)))
        }
        // Why: OpenSSL verifies the bare PKCS #1 v1.5 encoding of a message as its signature under e = 1.
        let message = Array("any message".utf8)
        let digestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        let padded = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 256 - 3 - 51) + [0x00] + digestInfo + SHA256.hash(message)
        XCTAssertTrue(try PublicKeyBuilder.rsa(modulus: modulus, exponent: [1]).verify(padded, over: message, digest: .sha256))
    }

    /// RFC 8230 §4: n and e in the fewest octets; a modulus above OpenSSL's 16384-bit limit
    /// would register and then never verify.
    func testRSAKeyParametersMustBeMinimalAndVerifiable() throws {
        let modulus = [0xC5] + [UInt8](repeating: 0x5A, count: 254) + [0x01]
        let cases: [([UInt8], [UInt8])] = [
            ([0] + modulus, [1, 0, 1]), (modulus, [0, 1, 0, 1]), ([0xC5] + [UInt8](repeating: 0x5A, count: 2047) + [0x01], [1, 0, 1]),
        ]
        for (n, e) in cases {
            let key = CBORValue.map([
                CBORMapEntry(key: .int(1), value: .int(3)), CBORMapEntry(key: .int(3), value: .int(-257)),
                CBORMapEntry(key: .int(-1), value: .bytes(n)), CBORMapEntry(key: .int(-2), value: .bytes(e)),
            ])
            XCTAssertRefused(.malformed("an RSA key's n and e must be minimal, n at most 16384 bits"), try COSEKey(bytes: CBORWriter.encode(key)))
        }
        XCTAssertEqual(try COSEKey(bytes: CBORWriter.encode(.map([
            CBORMapEntry(key: .int(1), value: .int(3)), CBORMapEntry(key: .int(3), value: .int(-257)),
            CBORMapEntry(key: .int(-1), value: .bytes(modulus)), CBORMapEntry(key: .int(-2), value: .bytes([1, 0, 1])),
        ]))).algorithm, .rs256)
    }

    /// RFC 8032 keys of small order: under the identity, (R = identity, S = 0) is a signature of
    /// every message, and OpenSSL verifies it. Each of the eight points, either sign, is refused.
    func testSmallOrderEd25519KeysAreRefused() throws {
        let identity = [UInt8(1)] + [UInt8](repeating: 0, count: 31)
        let forged = identity + [UInt8](repeating: 0, count: 32)
        XCTAssertTrue(try PublicKeyBuilder.ed25519(identity).verify(forged, over: Array("any message".utf8), digest: .none))
        let order8 = "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"
        let smallOrder = [identity, [UInt8](repeating: 0, count: 32), hex(order8), [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]]
        for key in smallOrder + smallOrder.map({ $0.dropLast() + [$0[31] | 0x80] }) {
            let cose = CBORValue.map([
                CBORMapEntry(key: .int(1), value: .int(1)), CBORMapEntry(key: .int(3), value: .int(-8)),
                CBORMapEntry(key: .int(-1), value: .int(6)), CBORMapEntry(key: .int(-2), value: .bytes(key)),
            ])
            XCTAssertRefused(.malformed("an Ed25519 key of small order"), try COSEKey(bytes: CBORWriter.encode(cose)))
        }
    }

    private func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// clientDataJSON that repeats a member: the parser must not pick one silently. Escaped
    /// names count as their unescaped selves; names inside nested values are not members.
    func testDuplicateClientDataMembersAreRefused() throws {
        let members = #""challenge":"AQ","origin":"https://til.example""#
        for json in [#"{"type":"webauthn.get","type":"webauthn.create","#, #"{"type":"webauthn.get","t\u0079pe":"webauthn.create","#] {
            XCTAssertRefused(.malformed("clientDataJSON repeats a member"), try CollectedClientData(json: Array((json + members + "}").utf8)))
        }
        let nested = #"{"type":"webauthn.get","x":{"type":1,"a":["type"]},"y":"\"type\":","# + members + "}"
        XCTAssertEqual(try CollectedClientData(json: Array(nested.utf8)).type, "webauthn.get")
    }
}
