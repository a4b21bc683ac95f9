/// What the attestation statement of a registration proved, recorded with the credential.
/// TIL asks for `attestation: "none"` and trusts no attestation root: none of these makes a
/// credential more or less acceptable, they only say what was checked.
public enum AttestationKind: String, Sendable, Codable {
    /// Format `none`: no statement.
    case none
    /// Format `packed` without x5c: signed by the credential's own key (verified).
    case selfAttested
    /// Format `packed` with x5c: signed by the leaf certificate's key (verified), the chain
    /// trusted by nothing.
    case x5cUntrusted
    /// Any other format (tpm, android-key, apple, fido-u2f…): accepted without checking it.
    case unverified
}
