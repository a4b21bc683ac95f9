public import Foundation
import Logging
import Postgres
import Web

/// What `til-server users` does: an operator's work on accounts, straight on the database, no
/// HTTP and no token. Every change is audited like its API counterpart.
public struct UserAdministration: Sendable {
    let users: UserRepository
    let passwords: PasswordReplacement
    let throttle: LoginThrottle
    let audit: AuditLog

    /// One line of `users list`.
    public struct Account: Sendable, Equatable {
        public let id: UUID
        public let username: String
        public let name: String
        /// Sessions not ended and not expired.
        public let liveSessions: Int
        /// Failed logins for this username (keyed as the throttle keys it) inside the throttle's window.
        public let recentFailures: Int
    }

    /// Every account, in creation order.
    public func list() async throws -> [Account] {
        try await users.db.query("""
            SELECT u.id, u.username, u.name,
                   (SELECT count(*)::int FROM sessions s
                    WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.refresh_expires_at > now()) AS sessions,
                   (SELECT count(*)::int FROM login_failures f
                    WHERE f.username = lower(u.username)
                      AND f.at > now() - \(throttle.window.seconds) * interval '1 second') AS failures
            FROM users u ORDER BY u.seq
            """).map { row in
            Account(
                id: try row.decode(column: "id", as: UUID.self), username: try row.decode(column: "username", as: String.self),
                name: try row.decode(column: "name", as: String.self), liveSessions: try row.decode(column: "sessions", as: Int.self),
                recentFailures: try row.decode(column: "failures", as: Int.self))
        }
    }

    /// Gives `username` a new password (the password rules apply) and ends every session of
    /// theirs, as a password change does; how many sessions ended.
    @discardableResult
    public func setPassword(_ password: String, of username: String) async throws -> Int {
        do {
            try passwords.rules.validate(password, field: "new password")
        } catch {
            throw Failure(error.reason)
        }
        let user = try await existing(username)
        let ended = try await passwords.replace(passwordOf: user.id, with: password)
        audit.record(.passwordSet, command: "users set-password", userID: user.id)
        return ended
    }

    /// Forgives `username`'s failed logins and wrong second-factor codes, so the throttle lets
    /// them try again at once; how many failures were forgiven. (Failures counted per client
    /// address stay.)
    @discardableResult
    public func unlock(_ username: String) async throws -> Int {
        let user = try await existing(username)
        let forgiven = try await throttle.reset(username: user.username, alsoKey: SecondFactors.failureKey(user.id))
        audit.record(.loginUnlocked, command: "users unlock", userID: user.id)
        return forgiven
    }

    /// Grants or revokes `username`'s administrator role (`clients:write`); revoking ends their
    /// sessions that hold that scope. How many sessions ended.
    @discardableResult
    public func setAdmin(_ isAdmin: Bool, of username: String) async throws -> Int {
        let user = try await existing(username)
        let ended = try await AdminRole(db: users.db).set(isAdmin, for: user.id)
        audit.record(isAdmin ? .adminGranted : .adminRevoked, command: "users admin", userID: user.id)
        return ended
    }

    /// What `users mfa-reset` removed.
    public struct SecondFactorReset: Sendable, Equatable {
        /// Whether TOTP (confirmed or pending) was there to remove.
        public let removedTOTP: Bool
        /// How many passkeys were removed.
        public let removedPasskeys: Int
        public let endedSessions: Int
    }

    /// Removes `username`'s second factors (TOTP, recovery codes, passkeys, logins waiting for a
    /// second step) when both the device and the codes are lost (ASVS 6.4.4), and ends every session
    /// of theirs and every sign-in waiting to become one (`PendingSignIns`), in one transaction:
    /// whoever holds a token or a code of the old set-up is out.
    public func resetSecondFactors(of username: String) async throws -> SecondFactorReset {
        let user = try await existing(username)
        let sessions = passwords.sessions
        let totp = TOTPCredentialRepository(db: sessions.db, secretKey: nil)
        let reset = try await sessions.db.withTransaction { tx in
            // A personal access token being created now is committed before the sessions below
            // are read, and so ended with them (or sees its login ended, and is refused).
            try await tx.execute(PersonalAccessTokenRepository.creationLock(of: user.id))
            let removed = try await totp.removeAll(of: user.id, on: tx) > 0
            let passkeys = try await PasskeyRepository.removeAll(of: user.id, on: tx)
            try await tx.execute("WITH \(PendingSignIns.endedCTEs(of: user.id)) SELECT 1")
            return SecondFactorReset(
                removedTOTP: removed, removedPasskeys: passkeys, endedSessions: try await sessions.endAll(of: user.id, on: tx))
        }
        audit.record(.mfaReset, command: "users mfa-reset", userID: user.id)
        return reset
    }

    private func existing(_ username: String) async throws -> User {
        guard let user = try await users.find(username: username) else { throw Failure("no user named '\(username)'") }
        return user
    }

    /// Why a command could not do what it was asked, for the operator.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

extension TIL {
    /// The operator's commands on accounts, over this app's database and hasher.
    public var administration: UserAdministration {
        UserAdministration(
            users: UserRepository(db: db), passwords: passwordReplacement, throttle: loginThrottle, audit: AuditLog(logger: logger))
    }
}
