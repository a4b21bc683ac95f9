import Crypt
import Foundation
import Postgres

/// A user's new password, and the end of their sessions, in one transaction: whoever held the
/// old password or a token from it is out the moment the new one counts. The password change
/// (`PUT /api/users/me/password`, which keeps the caller's session and the personal access
/// tokens) and the operator's `til-server users set-password` (which keeps none) both go through
/// here, and so does a reset by mail (`PasswordResetCompletion`, in a transaction of its own
/// with `store`, ending the personal access tokens too).
struct PasswordReplacement: Sendable {
    let users: UserRepository
    let sessions: SessionRepository
    let hasher: BcryptHasher
    /// What the new password must be: each caller checks it first, before any other work.
    let rules: PasswordRules

    /// Hashes `password` (on the worker pool, before the transaction) and stores it for
    /// `userID`, ending every live session of theirs but `kept` (and, when
    /// `keepingPersonalAccessTokens`, their personal access tokens) and every mfaToken, and queuing
    /// `notice` (ASVS 6.3.7) in the same transaction; how many sessions ended. The hash is
    /// written first: it locks the user row, so a login starting a session meanwhile (which reads
    /// that row `FOR SHARE`, `TokenRepository.startSession`) either waits and finds the hash
    /// gone, or commits first and is ended here.
    @discardableResult
    func replace(
        passwordOf userID: UUID, with password: String, keeping kept: UUID? = nil, keepingPersonalAccessTokens: Bool = false,
        notice: AccountChangeMail? = nil
    ) async throws -> Int {
        let hash = try await hasher.hash(password)
        return try await sessions.db.withTransaction { tx in
            try await store(
                hash, of: userID, keeping: kept, keepingPersonalAccessTokens: keepingPersonalAccessTokens, notice: notice, on: tx)
        }
    }

    /// Stores `hash` for `userID` on `tx`, ends what the old password proved (every session but
    /// `kept`, and the personal access tokens unless `keepingPersonalAccessTokens`, every
    /// mfaToken) and every pending reset link (a new password makes a link asked
    /// for the old one moot), and queues `notice`: `replace`'s transaction, for a caller that
    /// adds to it (a password reset). How many sessions ended.
    @discardableResult
    func store(
        _ hash: String, of userID: UUID, keeping kept: UUID? = nil, keepingPersonalAccessTokens: Bool = false,
        notice: AccountChangeMail? = nil, on tx: any PostgresQueryable
    ) async throws -> Int {
        try await users.setPasswordHash(hash, of: userID, on: tx)
        // A login waiting for its second factor was proven with the old password; a reset's
        // mfaToken goes with its reset. So were the sign-ins waiting to become sessions: an
        // authorization code not yet redeemed, a device code approved but not yet polled.
        try await tx.execute("""
            WITH resets AS (DELETE FROM password_resets WHERE user_id = \(userID)), \(PendingSignIns.endedCTEs(of: userID))
            DELETE FROM mfa_challenges WHERE user_id = \(userID)
            """)
        try await notice?.queue(for: userID, on: tx)
        return try await sessions.endAll(
            of: userID, except: kept, keepingPersonalAccessTokens: keepingPersonalAccessTokens, on: tx)
    }
}
