// webauthn-crosscheck: writes, as one JSON document on stdout, registrations and assertions of
// the software authenticator (ES256, EdDSA, RS256; attestation none, packed self, packed x5c)
// with what TIL's own verifier made of them, and one tampered assertion per algorithm. Read by
// scripts/webauthn-crosscheck/crosscheck.py, which verifies the same bytes with py_webauthn.
import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting

let relyingParty = RelyingParty(id: "til.example", origins: ["https://til.example"])
var cases: [[String: Any]] = []
let styles: [(String, AttestationStyle)] = [("none", .none), ("packed-self", .packedSelf), ("packed-x5c", .packedCertificate)]

for algorithm in COSEAlgorithm.allCases {
    for (styleName, style) in styles where style != .packedCertificate || algorithm == .es256 {
        var authenticator = try SoftwareAuthenticator(algorithm: algorithm, rpID: relyingParty.id, origin: "https://til.example")
        let registrationChallenge = SecureRandom.bytes(count: 32)
        let registration = try authenticator.register(challenge: registrationChallenge, userID: Array("crosscheck".utf8), attestation: style)
        let credential = try Registration.verify(
            RegistrationResponse(json: registration), challenge: registrationChallenge, relyingParty: relyingParty)
        let stored = StoredCredential(
            publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: credential.signCount, backupEligible: false)
        let assertionChallenge = SecureRandom.bytes(count: 32)
        let assertion = try authenticator.assert(challenge: assertionChallenge)
        let verified = try Assertion.verify(
            AuthenticationResponse(json: assertion), challenge: assertionChallenge, relyingParty: relyingParty, credential: stored)
        let tampered = try authenticator.assert(challenge: assertionChallenge, tampering: Tampering { $0.badSignature = true })
        cases.append([
            "name": "\(algorithm) \(styleName)",
            "algorithm": algorithm.rawValue,
            "registration": try JSONSerialization.jsonObject(with: registration),
            "registrationChallenge": Base64URL.encode(registrationChallenge),
            "authentication": try JSONSerialization.jsonObject(with: assertion),
            "authenticationChallenge": Base64URL.encode(assertionChallenge),
            "tamperedAuthentication": try JSONSerialization.jsonObject(with: tampered),
            "swift": [
                "credentialID": Base64URL.encode(credential.id), "publicKey": Base64URL.encode(credential.publicKey),
                "fmt": credential.attestationFormat, "signCount": Int(credential.signCount), "assertionSignCount": Int(verified.signCount),
            ],
        ])
    }
}
let document: [String: Any] = ["rpID": relyingParty.id, "origin": "https://til.example", "cases": cases]
FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
