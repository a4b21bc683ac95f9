import Crypt
import Foundation
import WebAuthn
import WebAuthnTesting

/// Passkey assertion verification per second on one thread, for ES256, EdDSA and RS256: the
/// whole of `Assertion.verify` (COSE key parse, client data and flag checks, SHA-256, the
/// OpenSSL signature check) over a response decoded once, as the server would after finding the
/// credential. Beside bcrypt's rate it shows what a passkey login costs the server.
func runWebAuthnBenchmark(seconds: Int) throws {
    let relyingParty = RelyingParty(id: "til.example", origins: ["https://til.example"])
    print("WebAuthn assertion verification (Assertion.verify), one thread, \(seconds) s per algorithm:")
    for algorithm in COSEAlgorithm.allCases {
        var authenticator = try SoftwareAuthenticator(algorithm: algorithm, rpID: relyingParty.id, origin: "https://til.example")
        let challenge = SecureRandom.bytes(count: 32)
        let registration = try authenticator.register(challenge: challenge, userID: [1])
        let credential = try Registration.verify(RegistrationResponse(json: registration), challenge: challenge, relyingParty: relyingParty)
        let stored = StoredCredential(publicKey: credential.publicKey, algorithm: algorithm, signCount: 0, backupEligible: false)
        let response = try AuthenticationResponse(json: try authenticator.assert(challenge: challenge))
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .seconds(seconds)
        var count = 0
        while clock.now < deadline {
            _ = try Assertion.verify(response, challenge: challenge, relyingParty: relyingParty, credential: stored)
            count += 1
        }
        let perSecond = Double(count) / ((clock.now - start) / .seconds(1))
        print("  \(algorithm): \(Int(perSecond.rounded())) verifications/s (\(Int((1_000_000 / perSecond).rounded())) µs each)")
    }
}
