import Foundation
import Postgres
import Web

/// An access-token check and the write it guards, as ONE statement (issue 22): a bearer write
/// costs one round trip instead of two (check, then write) or three (check, ownership, write).
///
/// ```sql
/// WITH caller AS (the token's session, if the token is live and holds the scope; locked FOR SHARE),
///      touch AS (last_used_at, at most once a minute, as `TokenRepository.authenticate` does),
///      written AS (the write, reading the caller's `user_id` FROM caller)
/// SELECT caller.user_id, written.* FROM caller LEFT JOIN written
/// ```
/// No row: the token failed the check, and nothing was written (the write reads `FROM caller`,
/// which is empty). One row whose `wrote` is NULL: the token passed, and the write matched
/// nothing. The caller learns why a check failed from `TokenRepository.authenticate`, on that
/// error path only.
///
/// Revocation stays immediate across processes: the check reads the live rows in the write's
/// own statement, and locks the session `FOR SHARE`, so a logout (or any other end of the
/// session: an `UPDATE` of its row) either waits for a write that already passed the check to
/// commit, or commits first and the write, re-reading the session, finds it ended. No row
/// appears after the revocation that ended its token's session committed. (A token revoked on
/// its own, the pair a retry within the refresh grace supersedes, is checked but not locked:
/// its session lives on, and a write that passed the check may commit just after.)
///
/// The touch skips a session row that another write holds (`SKIP LOCKED`): two writes that both
/// hold the share lock and both wanted to upgrade it would deadlock. A busy session skips some
/// touches; the first write alone on it, or any read, records the use.
///
/// The digest is compared by PostgreSQL's index, not in constant time: sound, because the
/// caller chooses the token, not its SHA-256. A timing difference could at most tell how many
/// leading bytes of the digest of a guess match a stored digest; steering that prefix costs a
/// preimage search per byte, and a known digest prefix (or a whole digest) yields no token.
/// The constant-time compare in `authenticate` guards the same lookup and adds nothing here.
extension TokenRepository {
    /// Runs `write` for the holder of the token whose SHA-256 is `digest`, if it is live and
    /// holds `scope`. `write` is a data-modifying statement with a `RETURNING` list that reads
    /// the caller as the one-row relation `caller` (column `user_id`): `INSERT ... SELECT ...,
    /// caller.user_id FROM caller RETURNING ...`, `UPDATE ... FROM caller WHERE ...`.
    /// `touch` is how the use is recorded (`SessionTouch`: a personal access token's with its address).
    func checkedWrite(
        _ write: PostgresQuery, tokenDigest digest: String, scope: Scope, touch: SessionTouch
    ) async throws -> CheckedWrite {
        let rows = try await db.query("""
            WITH caller AS (
                SELECT s.id AS session_id, s.user_id, \(touch.isDue) AS stale
                FROM tokens t JOIN sessions s ON s.id = t.session_id
                WHERE t.digest = \(digest) AND t.expires_at > now() AND t.revoked_at IS NULL AND s.revoked_at IS NULL
                  AND s.audience IS NULL AND \(scope.rawValue) = ANY (string_to_array(coalesce(t.scopes, s.scopes), ' '))\(touch.restriction)
                FOR SHARE OF s
            ), touch AS (
                UPDATE sessions SET \(touch.assignments) WHERE id IN (
                    SELECT s.id FROM sessions s JOIN caller c ON s.id = c.session_id WHERE c.stale
                    FOR NO KEY UPDATE OF s SKIP LOCKED)
            ), written AS (
                \(write)
            )
            SELECT caller.user_id AS "callerID", w.* FROM caller LEFT JOIN (SELECT TRUE AS wrote, * FROM written) w ON TRUE
            """)
        guard let row = rows.first else { return .refused }
        let userID = try row.decode(column: "callerID", as: UUID?.self)
        return try row.decode(column: "wrote", as: Bool?.self) == true ? .wrote(row, by: userID) : .matchedNothing(by: userID)
    }
}

/// What a checked write did.
enum CheckedWrite {
    /// The token failed the check (unknown, expired, revoked or without the scope): nothing written.
    case refused
    /// The token of user `by` passed, and the write matched no row (an unknown id, a row the
    /// caller may not change, a link that already existed).
    /// `by` is nil for a client's own token (`client_credentials`): only a write that needs no
    /// user (a category) lets it hold the scope.
    case matchedNothing(by: UUID?)
    /// The token of user `by` passed, and the write returned this row (its `RETURNING` list).
    case wrote(PostgresRow, by: UUID?)
}
