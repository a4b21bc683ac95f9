import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// Registration (§7.1) and authentication (§7.2) succeed for ES256, EdDSA and RS256, with each
/// attestation TIL verifies, and report what the server stores.
final class CeremonyTests: XCTestCase {
    func testRegisterAndAssertWithEveryAlgorithm() throws {
        for algorithm in COSEAlgorithm.allCases {
            var authenticator = try Ceremony.authenticator(algorithm)
            let credential = try Ceremony.register(&authenticator)
            XCTAssertEqual(credential.id, authenticator.credentialID)
            XCTAssertEqual(credential.algorithm, algorithm)
            XCTAssertEqual(credential.publicKey, try authenticator.publicKeyCOSE())
            XCTAssertEqual(credential.attestationFormat, "none")
            XCTAssertEqual(credential.attestation, AttestationKind.none)
            XCTAssertEqual(credential.transports, ["internal", "hybrid"])
            XCTAssertEqual(credential.aaguid, SoftwareAuthenticator.aaguid)
            XCTAssertFalse(credential.backupEligible)

            let first = try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential))
            XCTAssertEqual(first.signCount, 1, "\(algorithm)")
            XCTAssertEqual(first.userHandle, Array("user-1".utf8))
            XCTAssertFalse(first.gainedBackupEligibility)
            let second = try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: first.signCount))
            XCTAssertEqual(second.signCount, 2)
        }
    }

    func testPackedSelfAttestationVerifiesWithTheCredentialKey() throws {
        for algorithm in COSEAlgorithm.allCases {
            var authenticator = try Ceremony.authenticator(algorithm)
            let credential = try Ceremony.register(&authenticator, attestation: .packedSelf)
            XCTAssertEqual(credential.attestationFormat, "packed")
            XCTAssertEqual(credential.attestation, .selfAttested)
        }
    }

    func testPackedCertificateAttestationIsVerifiedAndLeftUntrusted() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let credential = try Ceremony.register(&authenticator, attestation: .packedCertificate)
        XCTAssertEqual(credential.attestation, .x5cUntrusted)
    }

    func testPackedSelfAttestationWithAnotherAlgorithmOrBadSignatureIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let json = try authenticator.register(challenge: [1, 2, 3], userID: [9], attestation: .packedSelf)
        let corrupted = try Self.rewriteAttestation(json) { statement in
            .map(statement.entries!.map { $0.key == .text("sig") ? CBORMapEntry(key: $0.key, value: .bytes([0x30, 0x00])) : $0 })
        }
        XCTAssertRefused(.attestationInvalid("bad self signature"),
            try Registration.verify(try RegistrationResponse(json: corrupted), challenge: [1, 2, 3], relyingParty: Ceremony.relyingParty))
    }

    func testOtherFormatsAreAcceptedAsUnverified() throws {
        var authenticator = try Ceremony.authenticator(.edDSA)
        let json = try authenticator.register(challenge: [7], userID: [9], attestation: .packedSelf)
        let tpm = try Self.rewriteAttestation(json, format: "tpm") { _ in .map([CBORMapEntry(key: .text("ver"), value: .text("2.0"))]) }
        let credential = try Registration.verify(try RegistrationResponse(json: tpm), challenge: [7], relyingParty: Ceremony.relyingParty)
        XCTAssertEqual(credential.attestationFormat, "tpm")
        XCTAssertEqual(credential.attestation, .unverified)
    }

    func testNoneWithAStatementIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let json = try authenticator.register(challenge: [7], userID: [9])
        let filled = try Self.rewriteAttestation(json) { _ in .map([CBORMapEntry(key: .text("sig"), value: .bytes([1]))]) }
        XCTAssertRefused(.attestationInvalid("format none with a statement"),
            try Registration.verify(try RegistrationResponse(json: filled), challenge: [7], relyingParty: Ceremony.relyingParty))
    }

    func testSyncedPasskeyWithZeroCountsAndBackupFlags() throws {
        var authenticator = try Ceremony.authenticator(.es256, backupEligible: true, countsSignatures: false)
        authenticator.backedUp = true
        let credential = try Ceremony.register(&authenticator)
        XCTAssertTrue(credential.backupEligible)
        XCTAssertTrue(credential.backedUp)
        XCTAssertEqual(credential.signCount, 0)
        for _ in 0..<2 {
            let assertion = try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential))
            XCTAssertEqual(assertion.signCount, 0, "both zero is accepted, every time")
            XCTAssertTrue(assertion.backedUp)
        }
    }

    /// The deliberate deviation from §7.2 step 19: BE turning 0 → 1 is accepted and flagged.
    func testGainingBackupEligibilityIsAcceptedAndFlagged() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let credential = try Ceremony.register(&authenticator)
        authenticator.backupEligible = true
        authenticator.backedUp = true
        let assertion = try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential))
        XCTAssertTrue(assertion.gainedBackupEligibility)
        XCTAssertTrue(assertion.backupEligible)
        XCTAssertTrue(assertion.backedUp)
    }

    func testPaddedBase64URLIsTolerated() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let credential = try Ceremony.register(&authenticator)
        let challenge = SecureRandom.bytes(count: 32)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: try authenticator.assert(challenge: challenge)) as? [String: Any])
        var response = try XCTUnwrap(json["response"] as? [String: Any])
        let signature = try XCTUnwrap(response["signature"] as? String)
        response["signature"] = signature + String(repeating: "=", count: (4 - signature.count % 4) % 4)
        json["response"] = response
        let padded = try AuthenticationResponse(json: try JSONSerialization.data(withJSONObject: json))
        XCTAssertNoThrow(try Assertion.verify(padded, challenge: challenge, relyingParty: Ceremony.relyingParty, credential: Ceremony.stored(credential)))
    }

    /// The registration JSON with its attestation object's statement (and maybe format) replaced.
    static func rewriteAttestation(_ json: Data, format: String? = nil, _ statement: (CBORValue) -> CBORValue) throws -> Data {
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        var response = try XCTUnwrap(object["response"] as? [String: Any])
        let attestation = try CBORDecoder.decode(try XCTUnwrap(Base64URL.decode(try XCTUnwrap(response["attestationObject"] as? String))))
        let rewritten = CBORValue.map(try XCTUnwrap(attestation.entries).map { entry in
            switch entry.key {
            case .text("attStmt"): CBORMapEntry(key: entry.key, value: statement(entry.value))
            case .text("fmt"): CBORMapEntry(key: entry.key, value: .text(format ?? entry.value.text!))
            default: entry
            }
        })
        response["attestationObject"] = Base64URL.encode(CBORWriter.encode(rewritten))
        object["response"] = response
        return try JSONSerialization.data(withJSONObject: object)
    }
}
