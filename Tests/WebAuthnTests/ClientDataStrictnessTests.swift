import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// Behaviour the security review found correct but no test proved: origins compare exactly,
/// clientDataJSON members must have their JSON types, topOrigin is refused in assertions too,
/// an assertion may not carry attested credential data, and a counter at UInt32.max that
/// wraps to 0 is a clone sign.
final class ClientDataStrictnessTests: XCTestCase {
    /// Origins are the browser's serialisation (§5.8.1): no trailing slash, lowercase scheme
    /// and host, the default port left out. Anything else is another string, refused.
    func testOriginsCompareExactly() throws {
        for origin in ["https://til.example/", "HTTPS://til.example", "https://TIL.example", "https://til.example:443",
            "https://til.example.", "https://evil.til.example", "https://til.example\u{0}"] {
            var authenticator = try Ceremony.authenticator(.es256)
            XCTAssertRefused(.originMismatch, try Ceremony.register(&authenticator, tampering: Tampering { $0.origin = origin }))
        }
    }

    /// type, challenge and origin are strings and crossOrigin a boolean; a missing member or
    /// another JSON type is malformed, not coerced.
    func testClientDataMembersMustHaveTheirTypes() throws {
        let cases = [
            #"{"type":1,"challenge":"AQ","origin":"https://til.example"}"#,
            #"{"type":"webauthn.get","challenge":["AQ"],"origin":"https://til.example"}"#,
            #"{"type":"webauthn.get","challenge":"AQ","origin":null}"#,
            #"{"type":"webauthn.get","challenge":"AQ"}"#,
            #"{"type":"webauthn.get","challenge":"AQ","origin":"https://til.example","crossOrigin":"false"}"#,
            #"{"type":"webauthn.get","challenge":"AQ","origin":"https://til.example","crossOrigin":0}"#,
            #"{"type":"webauthn.get","challenge":"AQ","origin":"https://til.example","topOrigin":1}"#,
            #"{"type":"webauthn.get","challenge":"A+/Q","origin":"https://til.example"}"#,
            #"{"type":"webauthn.get","challenge":"AR","origin":"https://til.example"}"#,  // non-zero unused bits
            #"["webauthn.get","AQ","https://til.example"]"#,
        ]
        for json in cases {
            XCTAssertThrowsError(try CollectedClientData(json: Array(json.utf8)), json) {
                guard case .malformed = $0 as? WebAuthnError else { return XCTFail("\(json): \($0)") }
            }
        }
    }

    func testTopOriginIsRefusedInAnAssertion() throws {
        var authenticator = try Ceremony.authenticator(.edDSA)
        let stored = Ceremony.stored(try Ceremony.register(&authenticator))
        let challenge = SecureRandom.bytes(count: 32)
        let json = try authenticator.assert(challenge: challenge)
        let response = try AuthenticationResponse(json: json)
        let framed = Array((String(decoding: response.clientDataJSON.dropLast(), as: UTF8.self) + ",\"topOrigin\":\"https://evil.example\"}").utf8)
        let edited = try Self.replacing(json, member: "clientDataJSON", with: framed)
        XCTAssertRefused(.crossOrigin,
            try Assertion.verify(try AuthenticationResponse(json: edited), challenge: challenge, relyingParty: Ceremony.relyingParty, credential: stored))
    }

    func testAnAssertionWithAttestedCredentialDataIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let challenge = SecureRandom.bytes(count: 32)
        let registration = try RegistrationResponse(json: try authenticator.register(challenge: challenge, userID: [1]))
        let stored = Ceremony.stored(try Registration.verify(registration, challenge: challenge, relyingParty: Ceremony.relyingParty))
        let registrationAuthData = try XCTUnwrap(try CBORDecoder.decode(registration.attestationObject)["authData"]?.bytes)
        let json = try Self.replacing(try authenticator.assert(challenge: challenge), member: "authenticatorData", with: registrationAuthData)
        XCTAssertRefused(.malformed("an assertion with attested credential data"),
            try Assertion.verify(try AuthenticationResponse(json: json), challenge: challenge, relyingParty: Ceremony.relyingParty, credential: stored))
    }

    /// §7.2 step 21 compares as integers: a counter at UInt32.max that comes back as 0 (a wrap)
    /// is not greater, so it is refused rather than read as progress.
    func testASignCountWrappingPastUInt32MaxIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.rs256)
        let credential = try Ceremony.register(&authenticator)
        let stored = Ceremony.stored(credential, signCount: .max)
        for count: UInt32 in [0, 1, .max] {
            XCTAssertRefused(.signCountNotIncreasing, try Ceremony.assert(&authenticator, stored: stored, tampering: Tampering { $0.signCount = count }))
        }
        XCTAssertEqual(try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: .max - 1),
            tampering: Tampering { $0.signCount = .max }).signCount, .max)
    }

    /// The response JSON with one `response` member replaced by the base64url of `bytes`.
    private static func replacing(_ json: Data, member: String, with bytes: [UInt8]) throws -> Data {
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        var response = try XCTUnwrap(object["response"] as? [String: Any])
        response[member] = Base64URL.encode(bytes)
        object["response"] = response
        return try JSONSerialization.data(withJSONObject: object)
    }
}
