import Crypt
import Foundation
import Postgres
import Web

/// The request for a reset link (`POST /api/users/password-reset`, the forgot-password page):
/// one transaction of two statements whatever the login names, so neither the answer nor its
/// timing tells whether an account exists.
///
/// 1. `password_reset_begin` admits the request under the address's limit (or refuses it: 429
///    with `Retry-After`, nothing written), and finds the account with a verified address
///    that the login names, locking it against a concurrent request for the same account.
/// 2. One write of one shape: the account's older reset deleted, the new one stored and its
///    mail queued in the outbox (`MailOutbox`); or, for no such account or one past its limit,
///    a decoy row that the sender deletes unsent.
struct PasswordResetRequests: Sendable {
    let db: PostgresClient
    let settings: PasswordResetSettings
    let issuer: ServedIssuer
    let audit: AuditLog
    /// Longer logins are refused (400); past 256 bytes, as at login, none matches an account.
    static let maxLoginBytes = 1024

    /// What came of an admitted request.
    private enum Outcome: Sendable {
        case sent(userID: UUID)
        case limited(userID: UUID)
        case noAccount
    }

    /// Queues a link for the account `login` names, if it has a verified address and is under
    /// its limit; otherwise does the same work for nothing. Throws 429 past the address's limit.
    func request(login: String, _ request: Request) async throws {
        let claimed = String(UsernameRules.normalized(login).unicodeScalars.prefix(257))
        let address = request.clientAddress
        let token = SecureRandom.token()
        let (settings, issuer) = (settings, issuer)
        let outcome = try await db.withTransaction { tx -> Result<Outcome, Abort> in
            let rows = try await tx.query("""
                SELECT wait_seconds, account_id, account_username, account_email, account_limited
                FROM password_reset_begin(
                    \(claimed), \(address), \(settings.addressLimit), \(settings.accountLimit), \(settings.window.seconds))
                """)
            guard let row = rows.first else { throw PostgresError(.server, message: "password_reset_begin answered no row") }
            if let wait = try row.decode(column: "wait_seconds", as: Double?.self) {
                return .failure(.tooMany("password reset requests from this address", retryAfter: wait))
            }
            let accountID = try row.decode(column: "account_id", as: UUID?.self)
            guard let accountID, try !row.decode(column: "account_limited", as: Bool.self) else {
                try await tx.execute(Self.write(token: token, userID: nil, mail: nil, ttl: settings.ttl))
                return .success(accountID.map { .limited(userID: $0) } ?? .noAccount)
            }
            let mail = PasswordResetMail.link(
                to: try row.decode(column: "account_email", as: String.self),
                username: try row.decode(column: "account_username", as: String.self),
                url: issuer.current.endpoint(PasswordResetPages.resetPath + "?token=" + token), lifetime: settings.ttlInWords)
            try await tx.execute(Self.write(token: token, userID: accountID, mail: mail, ttl: settings.ttl))
            return .success(.sent(userID: accountID))
        }
        switch outcome {
        case .failure(let refusal):
            audit.record(.passwordResetThrottled, request, username: String(claimed.prefix(256)))
            throw refusal
        case .success(.sent(let userID)):
            audit.record(.passwordResetRequested, request, userID: userID)
            audit.record(.passwordResetMailQueued, request, userID: userID)
        case .success(.limited(let userID)):
            audit.record(.passwordResetRequested, request, userID: userID)
            audit.record(.passwordResetLimited, request, userID: userID)
        case .success(.noAccount):
            audit.record(.passwordResetRequested, request, username: String(claimed.prefix(256)))
        }
    }

    /// The one write: for `userID`, its older resets replaced by `token`'s and `mail` queued;
    /// for nil, the same statement deleting and inserting nothing, with a decoy in the outbox.
    private static func write(token: String, userID: UUID?, mail: OutgoingMail?, ttl: Duration) -> PostgresQuery {
        let queue = mail.map(MailOutbox.enqueue) ?? MailOutbox.enqueueDecoy(kind: .passwordReset)
        return """
            WITH older AS (DELETE FROM password_resets WHERE user_id = \(userID)),
                 reset AS (
                     INSERT INTO password_resets (digest, user_id, expires_at)
                     SELECT \(SHA256.hex(of: token)), \(userID), now() + \(ttl.seconds) * interval '1 second'
                     WHERE \(userID)::uuid IS NOT NULL),
                 queued AS (\(queue))
            SELECT 1
            """
    }
}
