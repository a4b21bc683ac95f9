import Logging
import Postgres

/// Deletes what the token lifecycle leaves behind, in bounded batches, so the tables do not
/// grow without end: expired access tokens, refresh tokens a day after they were spent or
/// revoked (a day of reuse detection; later a reused token is simply unknown, still refused)
/// or once expired, ended sessions a day after they ended, failed logins no throttle rule counts
/// any more, and known login addresses unused for `LoginThrottle.knownOriginLifetime`.
///
/// Every TIL process runs one; deleting twice is harmless, and `SKIP LOCKED` keeps two
/// purgers from queueing behind each other's rows.
struct TokenPurger: Sendable {
    let db: PostgresClient
    /// How long a failed login counts (`AuthSettings.loginFailureRetention`).
    let loginFailureRetention: Duration
    let logger: Logger
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

    /// One pass over every table; the number of rows deleted.
    @discardableResult
    func purgeOnce() async throws -> Int {
        let statements: [PostgresQuery] = [
            """
            DELETE FROM tokens WHERE id IN (
                SELECT id FROM tokens WHERE expires_at < now() LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM refresh_tokens WHERE id IN (
                SELECT id FROM refresh_tokens
                WHERE expires_at < now() OR spent_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM sessions WHERE id IN (
                SELECT id FROM sessions
                WHERE refresh_expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM login_failures WHERE id IN (
                SELECT id FROM login_failures WHERE at < now() - \(loginFailureRetention.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
            """
            DELETE FROM login_known_origins WHERE ctid IN (
                SELECT ctid FROM login_known_origins
                WHERE last_success_at < now() - \(LoginThrottle.knownOriginLifetime.seconds) * interval '1 second'
                LIMIT \(Self.batchSize) FOR UPDATE SKIP LOCKED)
            """,
        ]
        var total = 0
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
