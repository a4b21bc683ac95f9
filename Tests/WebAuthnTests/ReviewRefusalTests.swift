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

    /// §7.1 step 10 / §7.2 step 14: a topOrigin means the ceremony ran in a cross-origin iframe,
    /// which TIL never expects, even when crossOrigin says false.
    func testTopOriginWithoutCrossOriginIsRefused() throws {
        let framed = Tampering {
            $0.alterClientDataJSON = { Array((String(decoding: $0.dropLast(), as: UTF8.self) + ",\"topOrigin\":\"https://evil.example\"}").utf8) }
        }
        var authenticator = try Ceremony.authenticator(.es256)
        XCTAssertRefused(.crossOrigin, try Ceremony.register(&authenticator, tampering: framed))
    }
}
