import Foundation
import Postgres

/// Sign-ins approved but not yet turned into sessions: an authorization code not yet redeemed,
/// a device code approved but not yet polled. Whatever ends a user's sessions because what
/// proved them is gone (a new password, an operator's second-factor reset) ends these too, or
/// they would start a session after it.
enum PendingSignIns {
    /// Two CTEs, `codes` and `devices`, ending `userID`'s: splice them after `WITH`.
    static func endedCTEs(of userID: UUID) -> PostgresQuery {
        """
        codes AS (
            UPDATE oauth_codes SET expires_at = now()
            WHERE user_id = \(userID) AND redeemed_at IS NULL AND expires_at > now()),
        devices AS (
            UPDATE oauth_device_codes SET status = 'denied', decided_at = now()
            WHERE user_id = \(userID) AND status = 'approved')
        """
    }
}
