import Foundation
import WebAuthn

/// A way a user can prove a second factor, as `methods` names it on the wire.
enum SecondFactorMethod: String, Codable, Sendable {
    case totp
    case recoveryCode = "recovery_code"
    case passkey
}

/// What a request offers as its second factor, normalised (`SecondFactorInput`).
enum SecondFactorProof: Sendable {
    case code(String)
    case recoveryCode(String)
    /// A passkey's assertion over a challenge tied to the mfaToken (`PasskeyAuthentication`).
    case passkey(AuthenticationResponse)
}

/// A login's second step, done: who, with which scopes, proven how (RFC 8176 `amr`), and how
/// many recovery codes are left when one was used.
struct SecondFactorSuccess: Sendable {
    let user: User
    let scopes: [Scope]
    let amr: [String]
    let recoveryCodesRemaining: Int?
}

/// A proof that checked out: the `amr` values it adds, and the recovery codes left if it spent one.
struct AcceptedProof: Sendable {
    let amr: [String]
    let recoveryCodesRemaining: Int?
}
