import Foundation
import Postgres

/// The condition a session started by a login's second step is stored under: the account
/// still has a second factor (confirmed TOTP or a passkey), read `FOR SHARE`. The second step
/// spends its mfaToken before the session is stored; without this, `users mfa-reset` (which
/// ends every session but leaves the password hash alone) could commit in between and the
/// session would outlive it. With it, a reset committed first leaves nothing to share-lock
/// (no session), and one that comes second waits for the insert and then ends it.
enum SecondFactorStillHeld {
    /// SQL: true unless `amr` records a second step (`mfa`) whose factors have since gone.
    static func condition(for userID: UUID, amr: [String]) -> PostgresQuery {
        guard amr.contains("mfa") else { return "true" }
        return """
            (EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = \(userID) AND confirmed_at IS NOT NULL FOR SHARE)
             OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(userID) FOR SHARE))
            """
    }
}
