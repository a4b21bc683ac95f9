import Crypt

/// The registration ceremony's verification (WebAuthn Level 3 §7.1). The server then checks
/// what needs its database: the challenge was issued and unused, the credential id is new.
public enum Registration {
    /// The credential to store, or the first rule `response` breaks. `challenge` is the one the
    /// server issued for this ceremony.
    public static func verify(_ response: RegistrationResponse, challenge: [UInt8], relyingParty: RelyingParty)
        throws(WebAuthnError) -> RegisteredCredential
    {
        // Steps 5–10: clientDataJSON.
        try CeremonyChecks.clientData(response.clientData, type: "webauthn.create", challenge: challenge, relyingParty: relyingParty)
        // Step 11: the hash the attestation signs.
        let clientDataHash = SHA256.hash(response.clientDataJSON)
        // Step 12: the attestation object (fmt, attStmt, authData with attested credential data).
        let object = try AttestationObject(bytes: response.attestationObject)
        // Steps 13–18: rpIdHash, UP, UV, BS without BE.
        try CeremonyChecks.authenticatorData(object.authenticatorData, relyingParty: relyingParty)
        // Step 19: the algorithm is one offered (COSEKey refuses any other while parsing).
        // Step 25's length limit was applied while parsing; the id must be the one the client sent.
        guard ConstantTime.equals(object.credential.credentialID, response.rawID) else { throw .credentialMismatch }
        // Steps 21–24: the attestation statement, trusted by nothing beyond what it proves.
        let attestation = try AttestationVerifier.verify(object, clientDataHash: clientDataHash)
        let flags = object.authenticatorData.flags
        return RegisteredCredential(
            id: object.credential.credentialID, publicKey: object.credential.publicKeyBytes,
            algorithm: object.credential.publicKey.algorithm, signCount: object.authenticatorData.signCount,
            transports: response.transports, backupEligible: flags.contains(.backupEligible), backedUp: flags.contains(.backedUp),
            attestationFormat: object.format, attestation: attestation, aaguid: object.credential.aaguid)
    }
}
