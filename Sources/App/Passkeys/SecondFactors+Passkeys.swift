import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebAuthn

/// A passkey as the second factor of a password login: `POST /api/users/login/mfa
/// {"mfaToken", "passkey": AuthenticationResponseJSON}`, over a challenge that
/// `POST /api/users/login/passkey/options {"mfaToken"}` tied to that mfaToken.
extension SecondFactors {
    /// The login's second step with a passkey: its own checks and throttle
    /// (`PasskeyAuthentication`), then the mfaToken spent in one locked transaction, so two
    /// answers racing with one token finish one login. A refused passkey counts toward the
    /// token's failures, as a wrong code does.
    func complete(_ mfaToken: String, passkey response: AuthenticationResponse, _ request: Request) async throws -> SecondFactorSuccess {
        guard let passkeys, let userID = try await challenges.user(of: mfaToken) else {
            audit.record(.mfaLoginFailed, request)
            throw Self.tokenGone
        }
        let owner: User
        do {
            owner = try await passkeys.authenticate(response, for: .secondFactor(mfaDigest: SHA256.hex(of: mfaToken)), request)
        } catch let refusal as Abort where refusal.status == .unauthorized {
            _ = try await challenges.fail(mfaToken, on: db)
            audit.record(.mfaLoginFailed, request, userID: userID)
            throw refusal
        }
        let scopes = try await db.withTransaction { tx -> [Scope]? in
            guard let pending = try await challenges.lock(mfaToken, on: tx), pending.userID == owner.id else { return nil }
            try await challenges.spend(mfaToken, on: tx)
            return pending.scopes
        }
        guard let scopes else {
            audit.record(.mfaLoginFailed, request, userID: owner.id)
            throw Self.tokenGone
        }
        return SecondFactorSuccess(user: owner, scopes: scopes, amr: ["pwd", "hwk", "mfa"], recoveryCodesRemaining: nil)
    }
}

/// The `passkey` field of `POST /api/users/login/mfa` (TILWire's `MFALoginRequest` carries the
/// codes; the assertion is decoded here, where the WebAuthn library is).
struct PasskeyProofField: Decodable, Sendable {
    let passkey: AuthenticationResponse?

    /// The proof `passkey` gives, when it is the body's only one.
    static func proof(_ passkey: AuthenticationResponse, besides body: MFALoginRequest) throws -> SecondFactorProof {
        guard body.code == nil, body.recoveryCode == nil else {
            throw Abort(.badRequest, reason: "Give one of 'code', 'recoveryCode' and 'passkey', not several.")
        }
        return .passkey(passkey)
    }
}
