import Foundation
import Logging
import Postgres

/// Deletes what the token lifecycle leaves behind, in bounded batches, so the tables do not
/// grow without end: expired access tokens; sessions a day after they ended (revoked, or their
/// refresh expiry passed), their refresh tokens first (a session whose tokens outnumber one
/// pass's batches goes in a later pass, never in one long cascade); failed logins no throttle
/// rule counts any more; known login addresses unused for `LoginThrottle.knownOriginLifetime`;
/// WebAuthn challenges, password resets and email verification links once expired; reset
/// requests once no limit counts them (`PasswordResetSettings.window`); email sends the resend
/// throttle no longer counts;
/// and authorization codes a day after they expired (until then a redeemed one is what lets a
/// second redemption revoke what the first issued).
///
/// Refresh tokens go only with their session. A spent one is what reuse detection recognises:
/// a thief who refreshed first keeps the session alive, and the real client may come back
/// with the old token weeks later. So it stays as long as its session could be live (at most
/// `SESSION_MAX_LIFETIME`), and the rate limit bounds how many a session gathers.
///
/// Signing keys retired longer than `signingKeyRetention` go too (`SigningKeyStore.prune`).
///
/// Every TIL process runs one; deleting twice is harmless, and `SKIP LOCKED` keeps two
/// purgers from queueing behind each other's rows.
struct TokenPurger: Sendable {
    let db: PostgresClient
    /// How long a failed login counts (`AuthSettings.loginFailureRetention`).
    let loginFailureRetention: Duration
    let logger: Logger
    /// How long a retired signing key stays published (`TIL.signingKeyRetention`); nil: kept.
    var signingKeyRetention: Duration?
    /// How long a password reset request counts toward its limits.
    var passwordResetRequestRetention: Duration = PasswordResetSettings().window
    static let batchSize = 1000
    /// Batches per table per pass: a backlog is worked off over several passes, never in one long burst.
    static let maxBatches = 20

    /// Purges every `interval` until the task is cancelled; the first pass comes one interval
    /// after start, so a fleet restarting together does not purge in a burst.
    func run(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            do {
                let removed = try await purgeOnce()
                if removed > 0 { logger.info("purged \(removed) expired auth rows") }
            } catch {
                logger.warning("token purge failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// One pass over every table; the number of rows deleted. `asOf` is the time the pass
    /// judges by, a bound parameter: nil (production) is the database's own clock, the one
    /// every expiry is compared with; a test moves it forward instead of waiting days.
    @discardableResult
    func purgeOnce(asOf: Date? = nil) async throws -> Int {
        let now: PostgresQuery = "coalesce(\(asOf), now())"
        let sessionOver: PostgresQuery = """
            (s.refresh_expires_at < \(now) - interval '1 day' OR s.revoked_at < \(now) - interval '1 day')
            """
        let statements: [PostgresQuery] = [
            """
            DELETE FROM tokens WHERE id IN (
                SELECT id FROM tokens WHERE expires_at < \(now) LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM refresh_tokens WHERE id IN (
                SELECT r.id FROM sessions s JOIN refresh_tokens r ON r.session_id = s.id
                WHERE \(sessionOver)
                LIMIT \(Self.batchSize) FOR UPDATE OF r SKIP LOCKED)
            """,
            """
            DELETE FROM sessions WHERE id IN (
                SELECT s.id FROM sessions s
                WHERE \(sessionOver) AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = s.id)
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM login_failures WHERE id IN (
                SELECT id FROM login_failures WHERE at < \(now) - \(loginFailureRetention.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM login_known_origins WHERE ctid IN (
                SELECT ctid FROM login_known_origins
                WHERE last_success_at < \(now) - \(LoginThrottle.knownOriginLifetime.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM oauth_codes WHERE digest IN (
                SELECT digest FROM oauth_codes WHERE expires_at < \(now) - interval '1 day'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM oauth_device_codes WHERE digest IN (
                SELECT digest FROM oauth_device_codes WHERE expires_at < \(now) - interval '1 day'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM mfa_challenges WHERE digest IN (
                SELECT digest FROM mfa_challenges WHERE expires_at < \(now) - interval '1 day'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM webauthn_challenges WHERE digest IN (
                SELECT digest FROM webauthn_challenges WHERE expires_at < \(now)
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM password_resets WHERE digest IN (
                SELECT digest FROM password_resets WHERE expires_at < \(now)
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM password_reset_requests WHERE id IN (
                SELECT id FROM password_reset_requests
                WHERE requested_at < \(now) - \(passwordResetRequestRetention.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM email_verifications WHERE digest IN (
                SELECT digest FROM email_verifications WHERE expires_at < \(now)
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM email_sends WHERE id IN (
                SELECT id FROM email_sends WHERE sent_at < \(now) - \(EmailSendThrottle.window.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
        ]
        var total = 0
        if let signingKeyRetention {
            total += try await db.query(SigningKeyStore.pruneStatement(retention: signingKeyRetention, asOf: asOf)).count
        }
        for statement in statements {
            for _ in 0..<Self.maxBatches {
                let removed = try await db.execute(statement)
                total += removed
                if removed < Self.batchSize { break }
            }
        }
        return total
    }
}
