import Crypt

/// The checks registration (§7.1) and authentication (§7.2) share, in the spec's order: the
/// client data (type, challenge, origin, crossOrigin), then the authenticator data (rpIdHash,
/// UP, UV, BE/BS).
enum CeremonyChecks {
    /// §7.1 steps 7–10 / §7.2 steps 11–14.
    static func clientData(_ clientData: CollectedClientData, type: String, challenge: [UInt8], relyingParty: RelyingParty)
        throws(WebAuthnError)
    {
        guard clientData.type == type else { throw .wrongType }
        guard ConstantTime.equals(clientData.challenge, challenge) else { throw .challengeMismatch }
        guard relyingParty.origins.contains(clientData.origin) else { throw .originMismatch }
        // A topOrigin means an iframe of another site (§7.1 step 10), which TIL never expects,
        // even when crossOrigin says false.
        guard clientData.crossOrigin != true, clientData.topOrigin == nil else { throw .crossOrigin }
    }

    /// §7.1 steps 13–16 / §7.2 steps 15–18. UV is required: a passkey is a whole login.
    static func authenticatorData(_ data: AuthenticatorData, relyingParty: RelyingParty) throws(WebAuthnError) {
        guard ConstantTime.equals(data.rpIDHash, SHA256.hash(relyingParty.id.utf8)) else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
        if data.flags.contains(.backedUp) && !data.flags.contains(.backupEligible) { throw .backupStateWithoutEligibility }
    }
}
