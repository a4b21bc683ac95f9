import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting
import XCTest

/// The relying party, authenticators and ceremony steps the WebAuthn tests share.
enum Ceremony {
    static let relyingParty = RelyingParty(id: "til.example", origins: ["https://til.example", "https://login.til.example"])

    static func authenticator(_ algorithm: COSEAlgorithm, backupEligible: Bool = false, countsSignatures: Bool = true) throws
        -> SoftwareAuthenticator
    {
        try SoftwareAuthenticator(
            algorithm: algorithm, rpID: relyingParty.id, origin: "https://til.example", countsSignatures: countsSignatures,
            backupEligible: backupEligible)
    }

    /// A registration through the JSON form, verified against a fresh challenge.
    static func register(
        _ authenticator: inout SoftwareAuthenticator, attestation: AttestationStyle = .none, tampering: Tampering = Tampering()
    ) throws -> RegisteredCredential {
        let challenge = SecureRandom.bytes(count: 32)
        let json = try authenticator.register(challenge: challenge, userID: Array("user-1".utf8), attestation: attestation, tampering: tampering)
        return try Registration.verify(try RegistrationResponse(json: json), challenge: challenge, relyingParty: relyingParty)
    }

    /// An assertion through the JSON form, verified against `stored` and a fresh challenge.
    static func assert(_ authenticator: inout SoftwareAuthenticator, stored: StoredCredential, tampering: Tampering = Tampering()) throws
        -> VerifiedAssertion
    {
        let challenge = SecureRandom.bytes(count: 32)
        let json = try authenticator.assert(challenge: challenge, tampering: tampering)
        return try Assertion.verify(try AuthenticationResponse(json: json), challenge: challenge, relyingParty: relyingParty, credential: stored)
    }

    static func stored(_ credential: RegisteredCredential, signCount: UInt32? = nil, backupEligible: Bool? = nil) -> StoredCredential {
        StoredCredential(
            publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: signCount ?? credential.signCount,
            backupEligible: backupEligible ?? credential.backupEligible)
    }
}

/// Asserts that `body` throws exactly `expected`.
func XCTAssertRefused<T>(_ expected: WebAuthnError, _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual(error as? WebAuthnError, expected, "\(error)", file: file, line: line)
    }
}
