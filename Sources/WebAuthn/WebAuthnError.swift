/// Why a registration or an assertion was refused: one case per rule of WebAuthn Level 3
/// §7.1/§7.2 that TIL enforces. `reason` is for logs and audit; a client gets one generic
/// refusal, so nothing here helps an attacker tune a forgery.
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON, base64url, authenticator data or attestation statement is not well formed.
    case malformed(String)
    /// The CBOR of the attestation object or a COSE key was refused.
    case cbor(CBORError)
    /// clientDataJSON's `type` is not `webauthn.create` (registration) or `webauthn.get`.
    case wrongType
    /// clientDataJSON's `challenge` is not the one the server issued.
    case challengeMismatch
    /// clientDataJSON's `origin` is not one of the relying party's.
    case originMismatch
    /// clientDataJSON says `crossOrigin: true`: TIL's pages are never embedded in another site.
    case crossOrigin
    /// The authenticator data's rpIdHash is not SHA-256 of the relying party's id.
    case rpIDMismatch
    /// The UP flag is clear.
    case userNotPresent
    /// The UV flag is clear: TIL asks for user verification, so a passkey is a complete login.
    case userNotVerified
    /// A COSE algorithm outside ES256, EdDSA and RS256 (the value named).
    case unsupportedAlgorithm(Int)
    /// The signature does not verify under the credential's key.
    case badSignature
    /// BS (backed up) is set without BE (backup eligible): §6.1.3 forbids it.
    case backupStateWithoutEligibility
    /// A credential stored as backup eligible came back without BE (§7.2 step 19).
    case backupEligibilityLost
    /// A non-zero sign count that did not grow: possibly a cloned authenticator (§7.2 step 21).
    case signCountNotIncreasing
    /// The attested credential id is not the response's `rawId`.
    case credentialMismatch
    /// The authenticator data's credential id is longer than 1023 bytes (§7.1 step 25).
    case credentialIDTooLong
    /// The attestation statement does not verify (the format's rule named).
    case attestationInvalid(String)

    public var reason: String {
        switch self {
        case .malformed(let what): "malformed WebAuthn response: \(what)"
        case .cbor(let error): "malformed WebAuthn response: \(error)"
        case .wrongType: "clientDataJSON has the wrong type"
        case .challengeMismatch: "the challenge does not match"
        case .originMismatch: "the origin is not allowed"
        case .crossOrigin: "a cross-origin ceremony is not allowed"
        case .rpIDMismatch: "the rpIdHash is not this relying party's"
        case .userNotPresent: "the user was not present (UP clear)"
        case .userNotVerified: "the user was not verified (UV clear)"
        case .unsupportedAlgorithm(let alg): "COSE algorithm \(alg) is not allowed"
        case .badSignature: "the signature does not verify"
        case .backupStateWithoutEligibility: "backed up (BS) without backup eligibility (BE)"
        case .backupEligibilityLost: "a backup-eligible credential came back without BE"
        case .signCountNotIncreasing: "the sign count did not increase (possibly a cloned authenticator)"
        case .credentialMismatch: "the attested credential id is not the response's rawId"
        case .credentialIDTooLong: "the credential id is longer than 1023 bytes"
        case .attestationInvalid(let why): "the attestation statement does not verify: \(why)"
        }
    }

    public var description: String { reason }
}
