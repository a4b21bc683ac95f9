import Foundation
import Postgres
import Web

/// The email address of accounts: a new account's address and its verification, a change of
/// address (pending until the new address proves itself, the old one in force meanwhile and
/// told of it), sending the link again, and spending a link's token. Every mail is queued in
/// the transaction of the change that causes it (`MailOutbox`), so it goes exactly when the
/// change commits. Addresses come validated and in NFC (`EmailRules`).
struct AccountEmails: Sendable {
    let db: PostgresClient
    let issuer: ServedIssuer
    let audit: AuditLog

    /// A new user holding `email` (unverified), its verification mail queued with the insert.
    /// A taken address: PostgreSQL's unique violation (409 naming `email`), nothing queued.
    func createUser(name: String, username: String, passwordHash: String, email: String, _ request: Request) async throws -> User {
        let user = try await db.withTransaction { transaction in
            let user = try await UserRepository(db: transaction).create(
                name: name, username: username, passwordHash: passwordHash, email: email)
            let (token, insert) = EmailVerificationTokens.issue(for: user.id, email: email, purpose: .verify)
            try await transaction.execute(insert)
            try await transaction.execute(MailOutbox.enqueue(
                EmailVerificationMail.confirmAddress(to: email, username: user.username, link: link(token))))
            try await transaction.execute(EmailSendThrottle.record(userID: user.id, address: request.clientAddress, recipient: email))
            return user
        }
        audit.record(.emailVerificationSent, request, userID: user.id)
        return user
    }

    /// Where `userID`'s address stands: current, verified, pending.
    func profile(of user: User) async throws -> AccountProfile {
        let row = try await db.query("""
            SELECT u.email, u.email_verified_at IS NOT NULL AS verified, (
                SELECT v.email FROM email_verifications v
                WHERE v.user_id = u.id AND v.purpose = 'change' AND v.expires_at > now() ORDER BY v.seq DESC LIMIT 1
            ) AS pending
            FROM users u WHERE u.id = \(user.id)
            """).first
        return AccountProfile(
            id: user.id, name: user.name, username: user.username, email: try row?.decode(column: "email", as: String?.self),
            emailVerified: try row?.decode(column: "verified", as: Bool.self) ?? false,
            pendingEmail: try row?.decode(column: "pending", as: String?.self))
    }

    /// `userID`'s address when it is verified (OpenID Connect's `email` claim); else nil.
    func verifiedAddress(of userID: UUID) async throws -> String? {
        try await db.query("SELECT email FROM users WHERE id = \(userID) AND email_verified_at IS NOT NULL")
            .first?.decode(column: "email", as: String?.self)
    }

    /// Starts a change of `user`'s address to `email`: a link to the new address (replacing
    /// an older pending change), and a notice to the current one when it is verified. 409 when
    /// another account holds `email`, or it is already this one's; the send throttle's 429.
    func requestChange(of user: User, to email: String, sessionID: UUID?, _ request: Request) async throws {
        try await db.withTransaction { transaction in
            let current = try await Self.lockedAddress(of: user.id, on: transaction)
            guard current.email != email else { throw Self.alreadyYours }
            let holders = try await transaction.query("""
                SELECT 1 FROM users WHERE lower(email) = lower(\(email)) AND id <> \(user.id)
                """)
            guard holders.isEmpty else { throw Abort.taken("email") }
            try await EmailSendThrottle.admit(userID: user.id, address: request.clientAddress, recipient: email, on: transaction)
            try await transaction.execute(EmailVerificationTokens.dropPendingChange(of: user.id))
            let (token, insert) = EmailVerificationTokens.issue(for: user.id, email: email, purpose: .change)
            try await transaction.execute(insert)
            try await transaction.execute(MailOutbox.enqueue(
                EmailVerificationMail.confirmChange(to: email, username: user.username, link: link(token))))
            if let old = current.email, current.verified {
                try await transaction.execute(MailOutbox.enqueue(EmailVerificationMail.changeRequested(
                    to: old, username: user.username, newEmail: email, accountPage: issuer.current.endpoint(AccountPageController.path))))
            }
        }
        audit.record(.emailChangeRequested, request, userID: user.id, sessionID: sessionID)
        audit.record(.emailVerificationSent, request, userID: user.id, sessionID: sessionID)
    }

    /// Sends a new link for what waits to be proven: the pending change, else an unverified
    /// current address. 409 when nothing waits; the send throttle's 429.
    func resendVerification(of user: User, sessionID: UUID?, _ request: Request) async throws {
        try await db.withTransaction { transaction in
            let current = try await Self.lockedAddress(of: user.id, on: transaction)
            let pending = try await transaction.query("""
                SELECT email FROM email_verifications
                WHERE user_id = \(user.id) AND purpose = 'change' AND expires_at > now() ORDER BY seq DESC LIMIT 1
                """).first?.decode(column: "email", as: String.self)
            let target: (email: String, purpose: EmailVerificationTokens.Purpose)
            if let pending {
                target = (pending, .change)
            } else if let email = current.email, !current.verified {
                target = (email, .verify)
            } else {
                throw current.email == nil ? Self.noAddress : Self.alreadyVerified
            }
            try await EmailSendThrottle.admit(userID: user.id, address: request.clientAddress, recipient: target.email, on: transaction)
            let (token, insert) = EmailVerificationTokens.issue(for: user.id, email: target.email, purpose: target.purpose)
            try await transaction.execute(insert)
            let mail = target.purpose == .change
                ? EmailVerificationMail.confirmChange(to: target.email, username: user.username, link: link(token))
                : EmailVerificationMail.confirmAddress(to: target.email, username: user.username, link: link(token))
            try await transaction.execute(MailOutbox.enqueue(mail))
        }
        audit.record(.emailVerificationSent, request, userID: user.id, sessionID: sessionID)
    }

    /// Spends a link's `token`: its address becomes the account's, verified. The account's
    /// row is locked first, so two links of one account take turns. 400 for a token unknown,
    /// expired or spent; 409 naming `email` when another account took the address meanwhile
    /// (the unique index decides: never two accounts on one address), the token then kept.
    func verify(token: String, _ request: Request) async throws -> UUID {
        guard let owner = try await EmailVerificationTokens.owner(of: token, on: db) else { throw Self.invalidToken }
        try await db.withTransaction { transaction in
            _ = try await Self.lockedAddress(of: owner, on: transaction)
            guard let spent = try await EmailVerificationTokens.spend(token, on: transaction), spent.userID == owner else {
                throw Self.invalidToken
            }
            switch spent.purpose {
            case .verify:
                let verified = try await transaction.execute("""
                    UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = \(owner) AND email = \(spent.email)
                    """)
                guard verified == 1 else { throw Self.invalidToken }
                try await transaction.execute("DELETE FROM email_verifications WHERE user_id = \(owner) AND purpose = 'verify'")
            case .change:
                try await transaction.execute("UPDATE users SET email = \(spent.email), email_verified_at = now() WHERE id = \(owner)")
                try await transaction.execute(EmailVerificationTokens.dropAll(of: owner))
            }
        }
        audit.record(.emailVerified, request, userID: owner)
        return owner
    }

    /// The verification link of `token`: the page that spends it with one button.
    func link(_ token: String) -> String {
        issuer.current.endpoint("\(VerifyEmailPages.path)?token=\(token)")
    }

    /// `userID`'s address, its row locked until the transaction ends; 404 when the account is gone.
    private static func lockedAddress(of userID: UUID, on transaction: PostgresTransaction) async throws -> (email: String?, verified: Bool) {
        guard let row = try await transaction.query("""
            SELECT email, email_verified_at IS NOT NULL AS verified FROM users WHERE id = \(userID) FOR UPDATE
            """).first else { throw Abort(.notFound, reason: "The account no longer exists.") }
        return (try row.decode(column: "email", as: String?.self), try row.decode(column: "verified", as: Bool.self))
    }

    static let invalidToken = Abort(
        .badRequest, reason: "This verification link is unknown, used or expired (links work for 24 hours): ask for a new one.")
    static let alreadyYours = Abort(.conflict, reason: "'email' is already your address.")
    static let alreadyVerified = Abort(.conflict, reason: "Your email address is verified already, and no change is pending.")
    static let noAddress = Abort(.conflict, reason: "Your account has no email address to verify: set one first.")
}
