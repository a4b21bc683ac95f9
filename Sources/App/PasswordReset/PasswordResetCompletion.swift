import Crypt
import Foundation
import Postgres
import Web

/// A reset confirmed: the link's token (and, for an account with a second factor, the second
/// step) proven, the new password stored. One transaction does it all, so it happens whole
/// or not at all: the password, the end of every session of every kind (token pairs, browser,
/// OAuth, personal access tokens), of every mfaToken, of the OAuth codes and approved device
/// codes not yet redeemed (a token waiting to be made is still a way in) and of every reset of
/// the account (`PasswordReplacement.store`, as for any new password), and the
/// `password-changed` notice.
///
/// A second factor is asked for exactly when a password login would ask for it (TOTP on,
/// `SecondFactors.methods`): a reset never gets around it (ASVS 6.4.3). The first confirm then
/// keeps the new password's hash on the reset and answers an mfaToken bound to that reset,
/// which no login accepts; the second one proves the factor (a code, a recovery code, or a
/// passkey: `PasswordResetCompletion+Passkey`) through the login throttle, as a login's second
/// step does. Five wrong codes, over every mfaToken of the reset, end it.
///
/// Each transaction locks the account's row first, then the reset, then the mfaToken: the
/// order a password change takes too (user row, then mfaTokens), so they never deadlock.
struct PasswordResetCompletion: Sendable {
    let resets: PasswordResetRepository
    let secondFactors: SecondFactors
    let passwords: PasswordReplacement
    let hasher: BcryptHasher
    let audit: AuditLog

    /// What a confirm came to.
    enum Step: Sendable {
        case done
        /// The second step: the mfaToken bound to the reset, and what the account can prove.
        case secondFactorRequired(mfaToken: String, methods: [SecondFactorMethod])
    }

    /// The first confirm: `newPassword` (already checked by `passwords.rules`) for the reset
    /// `token` names; done, or the second step.
    func begin(token: String, newPassword: String, _ request: Request) async throws -> Step {
        let user = try await owner(of: token, request)
        let hash = try await hasher.hash(newPassword)
        enum Outcome: Sendable { case gone, done, secondStep(String) }
        let outcome = try await resets.db.withTransaction { tx -> Outcome in
            try await Self.lockAccount(user.id, on: tx)
            guard let reset = try await resets.lock(token, of: user.id, on: tx) else { return .gone }
            guard try await Self.secondFactorOn(user.id, on: tx) else {
                try await finish(reset, of: user, hash: hash, on: tx)
                return .done
            }
            return .secondStep(
                try await resets.awaitSecondFactor(reset, newPasswordHash: hash, challenges: secondFactors.challenges, on: tx))
        }
        switch outcome {
        case .gone:
            audit.record(.passwordResetFailed, request, userID: user.id)
            throw PasswordResetRefusal.tokenGone
        case .done:
            audit.record(.passwordResetCompleted, request, userID: user.id)
            return .done
        case .secondStep(let mfaToken):
            audit.record(.passwordResetMFARequired, request, userID: user.id)
            return .secondFactorRequired(mfaToken: mfaToken, methods: try await methods(of: user.id))
        }
    }

    /// The second confirm: `proof` for the reset `token` names, with the `mfaToken` its first
    /// confirm gave; the password is `newPassword` when given again (checked already), else the
    /// first confirm's. Throws a `PasswordResetRefusal`, or the throttle's 429.
    func complete(token: String, newPassword: String?, mfaToken: String, proof: SecondFactorProof, _ request: Request) async throws {
        if case .passkey(let response) = proof {
            return try await complete(token: token, newPassword: newPassword, mfaToken: mfaToken, passkey: response, request)
        }
        let user = try await secondStep(token: token, mfaToken: mfaToken, request)
        let typed: String? = if let newPassword { try await hasher.hash(newPassword) } else { nil }
        enum Outcome: Sendable { case gone, mfaGone, wrong(ended: Bool), done(AcceptedProof) }
        let outcome = try await secondFactors.admitted(user, request, failing: { if case .wrong = $0 { true } else { false } }) {
            try await resets.db.withTransaction { tx -> Outcome in
                try await Self.lockAccount(user.id, on: tx)
                guard let reset = try await resets.lock(token, of: user.id, on: tx) else { return .gone }
                guard try await secondFactors.challenges.lock(mfaToken, passwordReset: reset.digest, on: tx)?.userID == user.id,
                      let hash = typed ?? reset.newPasswordHash
                else { return .mfaGone }
                guard let accepted = try await secondFactors.check(proof, of: user.id, on: tx) else {
                    return .wrong(ended: try await resets.fail(reset, on: tx))
                }
                try await secondFactors.challenges.spend(mfaToken, on: tx)
                try await finish(reset, of: user, hash: hash, on: tx)
                return .done(accepted)
            }
        }
        func refused(_ refusal: PasswordResetRefusal) -> PasswordResetRefusal {
            audit.record(.passwordResetFailed, request, userID: user.id, username: user.username)
            return refusal
        }
        switch outcome {
        case .gone: throw refused(.tokenGone)
        case .mfaGone: throw refused(.mfaTokenGone)
        case .wrong(let ended): throw refused(ended ? .wrongCodeEndedReset : .wrongCode)
        case .done(let accepted):
            if accepted.recoveryCodesRemaining != nil { audit.record(.recoveryCodeUsed, request, userID: user.id) }
            audit.record(.passwordResetCompleted, request, userID: user.id)
        }
    }

    /// The account of the live reset `token` names, for the page that shows its form (which
    /// spends nothing); nil when unknown, used or expired.
    func account(resetBy token: String) async throws -> User? {
        guard let userID = try await resets.owner(of: token) else { return nil }
        return try await secondFactors.users.find(userID)
    }

    /// Whether `userID` has recovery codes left, for the code step's disclosure.
    func hasRecoveryCodes(_ userID: UUID) async throws -> Bool {
        try await methods(of: userID).contains(.recoveryCode)
    }

    /// The account of the reset `token` names whose second step `mfaToken` is; the refusal
    /// (audited) when either is gone, or the mfaToken is not that reset's.
    func secondStep(token: String, mfaToken: String, _ request: Request) async throws -> User {
        let user = try await owner(of: token, request)
        guard let digest = PasswordResetRepository.digest(token),
              try await secondFactors.challenges.user(of: mfaToken, passwordReset: digest) == user.id
        else {
            audit.record(.passwordResetFailed, request, userID: user.id)
            throw PasswordResetRefusal.mfaTokenGone
        }
        return user
    }

    /// The account `token` resets; the refusal (audited) when it is unknown, used or expired.
    private func owner(of token: String, _ request: Request) async throws -> User {
        guard let user = try await account(resetBy: token) else {
            audit.record(.passwordResetFailed, request)
            throw PasswordResetRefusal.tokenGone
        }
        return user
    }

    /// What a reset's second step takes: what a login's does.
    private func methods(of userID: UUID) async throws -> [SecondFactorMethod] {
        try await secondFactors.methods(of: userID)
    }

    /// The reset's effects on `tx` (see the type's comment); the notice only to a verified address.
    func finish(_ reset: PasswordResetRepository.Live, of user: User, hash: String, on tx: any PostgresQueryable) async throws {
        try await passwords.store(hash, of: user.id, notice: .passwordReset, on: tx)
    }

    /// Locks the account's row until `tx` ends: the first lock of every confirm.
    static func lockAccount(_ userID: UUID, on tx: any PostgresQueryable) async throws {
        try await tx.execute("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE")
    }

    /// Whether a password login of `userID` needs a second step now (TOTP confirmed), read
    /// `FOR SHARE`: TOTP cannot be confirmed between this answer and the transaction's end.
    private static func secondFactorOn(_ userID: UUID, on tx: any PostgresQueryable) async throws -> Bool {
        let condition = SecondFactorStillHeld.condition(for: userID, amr: ["mfa"])
        return try await tx.query("SELECT \(condition) AS held").first?.decode(column: "held", as: Bool.self) ?? false
    }
}
