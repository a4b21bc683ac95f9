import Postgres

/// How a token check records a session's use (`last_used_at`) without turning every read into
/// a write: only when the recorded use is over a minute old. A personal access token's check
/// also records where it came from (`last_used_from`, which its list shows) and records its
/// first use at once (a new token's `last_used_at` is its creation). Every other token's check
/// stays exactly the statement it was: it binds no address and writes no column more.
struct SessionTouch {
    /// The client address of a personal access token's use; nil for any other token.
    let personalFrom: String?

    /// SQL over the session row aliased `s`: true when this check should record the use.
    var isDue: PostgresQuery {
        personalFrom == nil
            ? "s.last_used_at < now() - interval '60 seconds'"
            : "(s.last_used_from IS NULL OR s.last_used_at < now() - interval '60 seconds')"
    }

    /// SQL: the `SET` list of the `UPDATE sessions` that records it.
    var assignments: PostgresQuery {
        guard let personalFrom else { return "last_used_at = now()" }
        return "last_used_at = now(), last_used_from = \(personalFrom)"
    }

    /// SQL appended to the lookup's `WHERE`: a personal access token's session must be of kind
    /// `pat`; nothing for any other token.
    var restriction: PostgresQuery {
        personalFrom == nil ? "" : " AND s.kind = 'pat'"
    }
}
