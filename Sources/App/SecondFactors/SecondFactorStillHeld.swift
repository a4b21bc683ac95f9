import Foundation
import Postgres

/// The condition a session proven by a factor beyond the password is stored under: the
/// account still holds that factor, read `FOR SHARE`. A passkey login (`hwk`, alone or as the
/// second step) needs a passkey; a code or a recovery code (`mfa` without `hwk`) needs confirmed
/// TOTP. The factor is checked before the session is stored; without this, `users mfa-reset`
/// (which ends every session but leaves the password hash alone) could commit in between and
/// the session would outlive it. With it, a reset committed first leaves nothing to share-lock
/// (no session), and one that comes second waits for the insert and then ends it.
enum SecondFactorStillHeld {
    /// SQL: true for a password-only session; otherwise whether its factor is still there.
    static func condition(for userID: UUID, amr: [String]) -> PostgresQuery {
        if amr.contains("hwk") {
            return "EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(userID) FOR SHARE)"
        }
        if amr.contains("mfa") {
            return "EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = \(userID) AND confirmed_at IS NOT NULL FOR SHARE)"
        }
        return "true"
    }
}
