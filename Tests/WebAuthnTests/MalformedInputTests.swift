import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// Responses that are not well formed: the JSON envelope, base64url, the attestation object's
/// CBOR (duplicate keys, indefinite lengths, deep nesting) and authenticator data.
/// CBOR text, for hand-built attestation objects.
private func text(_ string: String) -> [UInt8] { CBORWriter.encode(.text(string)) }

final class MalformedInputTests: XCTestCase {
    func testJSONEnvelopeRefusals() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let good = try XCTUnwrap(JSONSerialization.jsonObject(with: try authenticator.register(challenge: [1], userID: [2])) as? [String: Any])
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("type", { $0["type"] = "password" }),
            ("id", { $0["id"] = "AAAA" }),
            ("rawId padding in the middle", { $0["rawId"] = "AA=A" }),
            ("rawId too long", { $0["rawId"] = Base64URL.encode([UInt8](repeating: 1, count: 1024)); $0["id"] = $0["rawId"] }),
            ("clientDataJSON not JSON", { Self.edit(&$0, "clientDataJSON", Base64URL.encode(Array("nope".utf8))) }),
            ("clientDataJSON too long", { Self.edit(&$0, "clientDataJSON", Base64URL.encode([UInt8](repeating: 32, count: 5000))) }),
            ("attestationObject not base64url", { Self.edit(&$0, "attestationObject", "***") }),
            ("transports", { Self.edit(&$0, "transports", (0..<9).map { "t\($0)" }) }),
            ("no response", { $0["response"] = nil }),
            ("authenticatorAttachment too long", { $0["authenticatorAttachment"] = String(repeating: "p", count: 33) }),
        ]
        for (name, edit) in edits {
            var object = good
            edit(&object)
            let json = try JSONSerialization.data(withJSONObject: object)
            XCTAssertThrowsError(try RegistrationResponse(json: json), name) { error in
                guard case .malformed = error as? WebAuthnError else { return XCTFail("\(name): \(error)") }
            }
            XCTAssertThrowsError(try JSONDecoder().decode(RegistrationResponse.self, from: json), name) {
                XCTAssertTrue($0 is DecodingError, "\(name): a server's JSON errors see a DecodingError, not \($0)")
            }
        }
    }

    func testAttestationObjectCBORRefusals() throws {
        let authData = [UInt8](repeating: 0, count: 37)
        let cases: [(WebAuthnError, [UInt8])] = [
            // {"fmt": "none", "fmt": "none", …}: a duplicate map key.
            (.cbor(.duplicateMapKey), [0xA3] + text("fmt") + text("none") + text("fmt") + text("none") + text("attStmt") + [0xA0]),
            // An indefinite-length map.
            (.cbor(.indefiniteLength), [0xBF] + text("fmt") + text("none") + [0xFF]),
            // attStmt nested past the depth limit.
            (.cbor(.tooDeep), [0xA3] + text("fmt") + text("none") + text("attStmt") + [UInt8](repeating: 0x81, count: 20) + [0x00]),
            (.cbor(.trailingBytes), [0xA0, 0x00]),
            (.malformed("the attestation object lacks fmt, attStmt or authData"), [0xA1] + text("fmt") + text("none")),
            (.malformed("registration authenticator data without attested credential data"),
                [0xA3] + text("fmt") + text("none") + text("attStmt") + [0xA0] + text("authData") + [0x58, 37] + authData),
        ]
        for (expected, object) in cases {
            XCTAssertRefused(expected, try Self.register(attestationObject: object))
        }
    }

    func testAuthenticatorDataRefusals() throws {
        let head = SHA256.hash("til.example".utf8)
        XCTAssertRefused(.malformed("authenticator data shorter than 37 bytes"), try AuthenticatorData(bytes: head))
        XCTAssertRefused(.malformed("bytes after the authenticator data the flags describe"), try AuthenticatorData(bytes: head + [0x05, 0, 0, 0, 1, 0xA0]))
        XCTAssertRefused(.malformed("attested credential data shorter than 18 bytes"), try AuthenticatorData(bytes: head + [0x45, 0, 0, 0, 1, 0]))
        let longID = head + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x04, 0x00]
        XCTAssertRefused(.credentialIDTooLong, try AuthenticatorData(bytes: longID))
        let overrun = head + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x00, 0x10, 1, 2]
        XCTAssertRefused(.malformed("the credential id runs past the data"), try AuthenticatorData(bytes: overrun))
        XCTAssertRefused(.cbor(.duplicateMapKey), try AuthenticatorData(bytes: head + [0x85, 0, 0, 0, 0, 0xA2, 1, 1, 1, 2]))
        XCTAssertEqual(try AuthenticatorData(bytes: head + [0x85, 0, 0, 0, 9, 0xA1, 1, 2]).extensions, .map([CBORMapEntry(key: .int(1), value: .int(2))]))
    }

    func testCOSEKeyRefusals() throws {
        let cases: [(WebAuthnError, CBORValue)] = [
            (.malformed("the COSE key is not a map"), .array([])),
            (.malformed("the COSE key has no kty or alg"), .map([CBORMapEntry(key: .int(1), value: .int(2))])),
            (.unsupportedAlgorithm(-36), .map([CBORMapEntry(key: .int(1), value: .int(2)), CBORMapEntry(key: .int(3), value: .int(-36))])),
            (.malformed("COSE kty 3 does not carry alg -7"), .map([CBORMapEntry(key: .int(1), value: .int(3)), CBORMapEntry(key: .int(3), value: .int(-7))])),
            (.malformed("an ES256 key must be P-256 with 32-byte x and y"), .map([CBORMapEntry(key: .int(1), value: .int(2)), CBORMapEntry(key: .int(3), value: .int(-7))])),
            (.malformed("OpenSSL refused the es256 public key"), .map([
                CBORMapEntry(key: .int(1), value: .int(2)), CBORMapEntry(key: .int(3), value: .int(-7)), CBORMapEntry(key: .int(-1), value: .int(1)),
                CBORMapEntry(key: .int(-2), value: .bytes([UInt8](repeating: 1, count: 32))), CBORMapEntry(key: .int(-3), value: .bytes([UInt8](repeating: 2, count: 32))),
            ])),
            (.malformed("OpenSSL refused the edDSA public key"), .map([
                CBORMapEntry(key: .int(1), value: .int(1)), CBORMapEntry(key: .int(3), value: .int(-8)), CBORMapEntry(key: .int(-1), value: .int(6)),
                CBORMapEntry(key: .int(-2), value: .bytes([1, 2, 3])),
            ])),
            (.malformed("an RSA key needs at least 2048 bits"), .map([
                CBORMapEntry(key: .int(1), value: .int(3)), CBORMapEntry(key: .int(3), value: .int(-257)),
                CBORMapEntry(key: .int(-1), value: .bytes([UInt8](repeating: 0xC5, count: 128))), CBORMapEntry(key: .int(-2), value: .bytes([1, 0, 1])),
            ])),
        ]
        for (expected, key) in cases {
            XCTAssertRefused(expected, try COSEKey(bytes: CBORWriter.encode(key)))
        }
    }


    private static func edit(_ object: inout [String: Any], _ member: String, _ value: Any) {
        var response = object["response"] as? [String: Any] ?? [:]
        response[member] = value
        object["response"] = response
    }

    /// Registration of an honest envelope around `attestationObject`.
    private static func register(attestationObject: [UInt8]) throws -> RegisteredCredential {
        var authenticator = try Ceremony.authenticator(.es256)
        let good = try authenticator.register(challenge: [1], userID: [2])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: good) as? [String: Any])
        var edited = object
        edit(&edited, "attestationObject", Base64URL.encode(attestationObject))
        let response = try RegistrationResponse(json: try JSONSerialization.data(withJSONObject: edited))
        return try Registration.verify(response, challenge: [1], relyingParty: Ceremony.relyingParty)
    }
}
