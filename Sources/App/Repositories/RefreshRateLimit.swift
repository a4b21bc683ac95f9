import Postgres
import Web

/// At most `perMinute` refreshes per session in any 60 seconds (`REFRESH_RATE_LIMIT`).
///
/// Without it one client could rotate hundreds of pairs a second, and since spent refresh
/// tokens are kept while their session lives (reuse detection), every one is a row. The count
/// is the session's own refresh tokens issued by a refresh (`parent_id` set: rotations and
/// grace re-issues) in the last minute, in PostgreSQL, so every TIL process shares it. It is a
/// condition of the redemption statement itself, so a refresh under the limit costs no extra
/// round trip, and a refused one leaves its token unspent: the client retries after
/// `Retry-After` with the same token, which stays valid.
struct RefreshRateLimit: Sendable {
    let perMinute: Int

    /// SQL for the seconds until the session `sessionID` (a column of the enclosing query) may
    /// refresh again: when the `perMinute`-th most recent refresh leaves the minute. NULL while
    /// it may refresh now. An index range scan of at most `perMinute` entries.
    func wait(sessionID column: String) -> PostgresQuery {
        """
        (SELECT extract(epoch FROM w.created_at + interval '60 seconds' - now())::float8
         FROM refresh_tokens w
         WHERE w.session_id = \(unescaped: column) AND w.parent_id IS NOT NULL
           AND w.created_at > now() - interval '60 seconds'
         ORDER BY w.created_at DESC OFFSET \(perMinute - 1) LIMIT 1)
        """
    }

    /// The answer to a refresh over the limit: 429 with `Retry-After`, the token not spent.
    static func refusal(waiting seconds: Double) -> Abort {
        .tooMany("refreshes of this session", retryAfter: seconds)
    }
}
