import Crypt

/// The authentication ceremony's verification (WebAuthn Level 3 §7.2). The server first finds
/// the credential by `response.rawID` and the challenge by the one in `response.clientData`,
/// and afterwards checks the user handle against the credential's owner and stores the result.
public enum Assertion {
    /// The new counter and backup state, or the first rule `response` breaks.
    ///
    /// Deliberate deviation from §7.2 step 19: a credential stored without BE whose
    /// authenticator data now sets BE is **accepted**, with `gainedBackupEligibility` true for
    /// the server to record and audit. iCloud Keychain and other providers turn single-device
    /// credentials into synced ones after registration; refusing them locks their users out
    /// (go-webauthn#335, supabase/auth#2732). BE turning from 1 to 0 is still refused.
    ///
    /// Sign counts (§7.2 step 21): when the stored or the received count is non-zero, the
    /// received one must be greater (else `signCountNotIncreasing`, a possible clone); both zero
    /// is what synced passkeys always send, and is accepted.
    public static func verify(
        _ response: AuthenticationResponse, challenge: [UInt8], relyingParty: RelyingParty, credential: StoredCredential
    ) throws(WebAuthnError) -> VerifiedAssertion {
        let key = try COSEKey(bytes: credential.publicKey)
        guard key.algorithm == credential.algorithm else { throw .malformed("the stored key's algorithm is not the stored algorithm") }
        // Steps 8–14: clientDataJSON.
        try CeremonyChecks.clientData(response.clientData, type: "webauthn.get", challenge: challenge, relyingParty: relyingParty)
        // Steps 15–18: rpIdHash, UP, UV, BS without BE.
        let data = try AuthenticatorData(bytes: response.authenticatorData)
        guard data.attestedCredential == nil else { throw .malformed("an assertion with attested credential data") }
        try CeremonyChecks.authenticatorData(data, relyingParty: relyingParty)
        let backupEligible = data.flags.contains(.backupEligible)
        if credential.backupEligible && !backupEligible { throw .backupEligibilityLost }
        // Steps 19–20: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        guard key.verify(response.signature, over: response.authenticatorData + SHA256.hash(response.clientDataJSON)) else {
            throw .badSignature
        }
        // Step 21: the sign count.
        if (credential.signCount != 0 || data.signCount != 0) && data.signCount <= credential.signCount {
            throw .signCountNotIncreasing
        }
        return VerifiedAssertion(
            signCount: data.signCount, backupEligible: backupEligible, backedUp: data.flags.contains(.backedUp),
            gainedBackupEligibility: backupEligible && !credential.backupEligible, userHandle: response.userHandle)
    }
}
