import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// Each rule of §7.1/§7.2 refuses the response that breaks it, with its own error, for a
/// response otherwise honest (the Proof list, and the rest of the rules).
final class RefusalTests: XCTestCase {
    func testRegistrationRefusals() throws {
        let cases: [(WebAuthnError, Tampering)] = [
            (.wrongType, Tampering { $0.type = "webauthn.get" }),
            (.originMismatch, Tampering { $0.origin = "https://til.example.evil" }),
            (.challengeMismatch, Tampering { $0.challenge = [1, 2, 3] }),
            (.crossOrigin, Tampering { $0.crossOrigin = true }),
            (.rpIDMismatch, Tampering { $0.rpID = "evil.example" }),
            (.userNotPresent, Tampering { $0.userPresent = false }),
            (.userNotVerified, Tampering { $0.userVerified = false }),
            (.backupStateWithoutEligibility, Tampering { $0.backedUp = true }),
            (.unsupportedAlgorithm(-35), Tampering { $0.coseAlgorithm = -35 }),
            (.credentialIDTooLong, Tampering { $0.credentialIDLength = 1024; $0.rawID = [1, 2, 3] }),  // the JSON rawId has its own limit
            (.credentialMismatch, Tampering { $0.rawID = [1, 2, 3, 4] }),
        ]
        for algorithm in COSEAlgorithm.allCases {
            for (expected, tampering) in cases {
                var authenticator = try Ceremony.authenticator(algorithm)
                XCTAssertRefused(expected, try Ceremony.register(&authenticator, tampering: tampering))
            }
        }
    }

    func testACredentialIDOfTheLongestLengthIsAccepted() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let credential = try Ceremony.register(&authenticator, tampering: Tampering { $0.credentialIDLength = 1023 })
        XCTAssertEqual(credential.id.count, 1023)
    }

    func testTamperedClientDataJSONBreaksTheAttestationSignature() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let sneaky = Tampering { $0.alterClientDataJSON = { Array(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\"crossOrigin\":false", with: "\"crossOrigin\":false ").utf8) } }
        XCTAssertRefused(.attestationInvalid("bad self signature"), try Ceremony.register(&authenticator, attestation: .packedSelf, tampering: sneaky))
    }

    func testAssertionRefusals() throws {
        let cases: [(WebAuthnError, Tampering)] = [
            (.wrongType, Tampering { $0.type = "webauthn.create" }),
            (.originMismatch, Tampering { $0.origin = "http://til.example" }),
            (.challengeMismatch, Tampering { $0.challenge = SecureRandom.bytes(count: 32) }),
            (.crossOrigin, Tampering { $0.crossOrigin = true }),
            (.rpIDMismatch, Tampering { $0.rpID = "login.til.example" }),
            (.userNotPresent, Tampering { $0.userPresent = false }),
            (.userNotVerified, Tampering { $0.userVerified = false }),
            (.backupStateWithoutEligibility, Tampering { $0.backedUp = true }),
            (.badSignature, Tampering { $0.badSignature = true }),
            // clientDataJSON changed after signing: same challenge and origin, another hash.
            (.badSignature, Tampering { $0.alterClientDataJSON = { $0 + Array(" ".utf8) } }),
            (.signCountNotIncreasing, Tampering { $0.signCount = 5 }),
        ]
        for algorithm in COSEAlgorithm.allCases {
            for (expected, tampering) in cases {
                var authenticator = try Ceremony.authenticator(algorithm)
                let stored = Ceremony.stored(try Ceremony.register(&authenticator), signCount: 5)
                XCTAssertRefused(expected, try Ceremony.assert(&authenticator, stored: stored, tampering: tampering))
            }
        }
    }

    func testSignCountGoingBackwardsOrStandingStillIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.edDSA)
        let credential = try Ceremony.register(&authenticator)
        authenticator.signCount = 41  // the next assertion says 42
        XCTAssertRefused(.signCountNotIncreasing, try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: 100)))
        XCTAssertRefused(.signCountNotIncreasing, try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: 43)))
        // A counter that stops (0) after counting is also a clone sign: stored non-zero, received 0.
        XCTAssertRefused(.signCountNotIncreasing, try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: 7), tampering: Tampering { $0.signCount = 0 }))
        XCTAssertEqual(try Ceremony.assert(&authenticator, stored: Ceremony.stored(credential, signCount: 43)).signCount, 45)
    }

    func testLosingBackupEligibilityIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256, backupEligible: true)
        let stored = Ceremony.stored(try Ceremony.register(&authenticator))
        XCTAssertRefused(.backupEligibilityLost, try Ceremony.assert(&authenticator, stored: stored, tampering: Tampering { $0.backupEligible = false }))
    }

    func testAnotherCredentialsKeyDoesNotVerify() throws {
        for algorithm in COSEAlgorithm.allCases {
            var victim = try Ceremony.authenticator(algorithm)
            var attacker = try Ceremony.authenticator(algorithm)
            let stored = Ceremony.stored(try Ceremony.register(&victim))
            _ = try Ceremony.register(&attacker)
            XCTAssertRefused(.badSignature, try Ceremony.assert(&attacker, stored: stored))
        }
    }

    func testStoredKeyOfAnotherAlgorithmIsRefused() throws {
        var authenticator = try Ceremony.authenticator(.es256)
        let credential = try Ceremony.register(&authenticator)
        let mislabelled = StoredCredential(publicKey: credential.publicKey, algorithm: .rs256, signCount: 0, backupEligible: false)
        XCTAssertRefused(.malformed("the stored key's algorithm is not the stored algorithm"), try Ceremony.assert(&authenticator, stored: mislabelled))
    }
}
