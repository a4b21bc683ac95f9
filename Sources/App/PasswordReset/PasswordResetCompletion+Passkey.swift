import Crypt
import Foundation
import Postgres
import Web
import WebAuthn

/// A passkey as a reset's second factor: `POST /api/users/password-reset/confirm {"token",
/// "mfaToken", "passkey": AuthenticationResponseJSON}`, over a challenge that
/// `POST /api/users/password-reset/passkey/options {"token", "mfaToken"}` tied to that mfaToken.
extension PasswordResetCompletion {
    /// The passkey's own checks and throttle (`PasskeyAuthentication`, as a login's second step
    /// has them), then the reset in one locked transaction, so two answers racing with one
    /// mfaToken reset once. A refused passkey counts toward the reset's five failures, as a
    /// wrong code does.
    func complete(token: String, newPassword: String?, mfaToken: String, passkey response: AuthenticationResponse, _ request: Request) async throws {
        let user = try await secondStep(token: token, mfaToken: mfaToken, request)
        guard let passkeys = secondFactors.passkeys else { throw PasswordResetRefusal.mfaTokenGone }
        let typed: String? = if let newPassword { try await hasher.hash(newPassword) } else { nil }
        do {
            let owner = try await passkeys.authenticate(response, for: .secondFactor(mfaDigest: SHA256.hex(of: mfaToken)), request)
            guard owner.id == user.id else { throw PasswordResetRefusal.mfaTokenGone }
        } catch let refusal as Abort where refusal.status == .unauthorized {
            let ended = try await resets.db.withTransaction { tx -> Bool in
                try await Self.lockAccount(user.id, on: tx)
                guard let reset = try await resets.lock(token, of: user.id, on: tx) else { return true }
                return try await resets.fail(reset, on: tx)
            }
            audit.record(.passwordResetFailed, request, userID: user.id, username: user.username)
            if ended { throw PasswordResetRefusal.tokenGone }
            throw refusal
        }
        let done = try await resets.db.withTransaction { tx -> Bool in
            try await Self.lockAccount(user.id, on: tx)
            guard let reset = try await resets.lock(token, of: user.id, on: tx),
                  try await secondFactors.challenges.lock(mfaToken, passwordReset: reset.digest, on: tx)?.userID == user.id,
                  let hash = typed ?? reset.newPasswordHash
            else { return false }
            try await secondFactors.challenges.spend(mfaToken, on: tx)
            try await finish(reset, of: user, hash: hash, on: tx)
            return true
        }
        guard done else {
            audit.record(.passwordResetFailed, request, userID: user.id)
            throw PasswordResetRefusal.mfaTokenGone
        }
        audit.record(.passwordResetCompleted, request, userID: user.id)
    }
}
