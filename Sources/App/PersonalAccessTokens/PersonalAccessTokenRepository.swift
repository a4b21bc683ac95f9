import Crypt
import Foundation
import Postgres
import TILWire

/// Personal access tokens as rows: a session of kind `pat` each (its name, scopes and expiry),
/// holding one access-token row (`til_pat_…`, by SHA-256 digest only) and no refresh token, so
/// `TokenRepository.authenticate` and the checked writes accept it as they accept any bearer
/// token, revoking it is ending its session, and the purge removes it a day after it ends.
struct PersonalAccessTokenRepository: Sendable {
    let db: PostgresClient

    /// Live (unrevoked, unexpired) tokens one account may hold at once.
    static let maxLivePerUser = 50

    /// What a creation did.
    enum Creation: Sendable {
        case created(NewPersonalAccessToken)
        /// The account already holds `maxLivePerUser` live tokens.
        case tooMany
        /// The login asking has ended meanwhile (or is no login of this user's).
        case creatorEnded
        /// The login asking is a third-party application's (an OAuth client other than `til`).
        case thirdParty
    }

    /// Stores `draft` for `userID`, asked for by its login `creator`, with a fresh token value.
    /// One transaction that first takes the account's `creationLock` (creations for one account
    /// queue, and each counts the ones before it: no burst passes the cap) and reads the user
    /// row `FOR SHARE` (a new password, which writes that row, waits for it or goes first). The
    /// creator is read after both, so a password reset or a second-factor reset (which takes
    /// the same lock) that ended it first refuses the creation, and one that comes after ends
    /// the new token with the rest.
    /// The `notice` of the new token is queued in the same transaction, to the user's email if
    /// it is verified (`MailOutbox`): the token and its notice are committed together, or neither.
    func create(
        _ draft: PersonalAccessTokenDraft, for userID: UUID, by creator: UUID,
        notice: @escaping @Sendable (_ token: NewPersonalAccessToken, _ recipient: String) -> OutgoingMail
    ) async throws -> Creation {
        let (sessionID, tokenID) = (SecureRandom.uuid(), SecureRandom.uuid())
        let value = PersonalAccessToken.prefix + SecureRandom.token()
        let expiry: PostgresQuery = "date_trunc('second', now() + \(draft.lifetime) * interval '1 second')"
        return try await db.withTransaction { tx in
            try await tx.execute(Self.creationLock(of: userID))
            let owner = try await tx.query("""
                SELECT CASE WHEN email_verified_at IS NOT NULL THEN email END AS verified_email
                FROM users WHERE id = \(userID) FOR SHARE
                """).first
            let verifiedEmail = try owner?.decode(column: "verified_email", as: String?.self)
            let row = try await tx.query("""
                WITH creator AS (
                    SELECT kind IN ('login', 'browser') OR client_id = \(TILMigrations.tilCLIClientID) AS first_party
                    FROM sessions
                    WHERE id = \(creator) AND user_id = \(userID) AND kind <> 'pat' AND revoked_at IS NULL
                      AND refresh_expires_at > now()
                ), live AS (
                    SELECT count(*)::int AS n FROM sessions
                    WHERE user_id = \(userID) AND kind = 'pat' AND revoked_at IS NULL AND expires_at > now()
                ), session AS (
                    INSERT INTO sessions (id, user_id, kind, name, scopes, amr, expires_at, refresh_expires_at)
                    SELECT \(sessionID), \(userID), 'pat', \(draft.name), \(Scope.storageText(draft.scopes)), '{}', \(expiry), \(expiry)
                    FROM creator, live WHERE creator.first_party AND live.n < \(Self.maxLivePerUser)
                    RETURNING created_at, expires_at
                ), access AS (
                    INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
                    SELECT \(tokenID), \(SHA256.hex(of: value)), \(userID), \(sessionID), expires_at FROM session
                )
                SELECT (SELECT first_party FROM creator) AS first_party, session.created_at, session.expires_at
                FROM (SELECT 1) AS one LEFT JOIN session ON TRUE
                """).first
            guard let row, let createdAt = try row.decode(column: "created_at", as: Date?.self) else {
                return switch try row?.decode(column: "first_party", as: Bool?.self) {
                case true?: .tooMany
                case false?: .thirdParty
                case nil: .creatorEnded
                }
            }
            let token = NewPersonalAccessToken(
                id: sessionID, name: draft.name, token: value, scopes: draft.scopes, createdAt: createdAt,
                expiresAt: try row.decode(column: "expires_at", as: Date.self))
            if let verifiedEmail { try await tx.execute(MailOutbox.enqueue(notice(token, verifiedEmail))) }
            return .created(token)
        }
    }

    /// The statement that takes the transaction-scoped lock on `userID`'s token creations
    /// (advisory lock class 5): whatever must see every token of the account, a creation
    /// committed before it included, takes it before reading them (`users mfa-reset`).
    static func creationLock(of userID: UUID) -> PostgresQuery {
        "SELECT pg_advisory_xact_lock(5, hashtext(\(userID.uuidString)))"
    }

    /// The account's live tokens, oldest first: never a value or a digest.
    func list(of userID: UUID) async throws -> [PersonalAccessToken] {
        try await db.query("""
            SELECT id, name, scopes, created_at, expires_at, last_used_from,
                   CASE WHEN last_used_from IS NOT NULL THEN last_used_at END AS last_used_at
            FROM sessions
            WHERE user_id = \(userID) AND kind = 'pat' AND revoked_at IS NULL AND expires_at > now()
            ORDER BY created_at, id
            """).map { row in
            PersonalAccessToken(
                id: try row.decode(column: "id", as: UUID.self), name: try row.decode(column: "name", as: String.self),
                scopes: Scope.stored(try row.decode(column: "scopes", as: String.self)),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                expiresAt: try row.decode(column: "expires_at", as: Date.self),
                lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self),
                lastUsedFrom: try row.decode(column: "last_used_from", as: String?.self))
        }
    }

    /// Revokes the live token `id` of `userID`: from the next request on, in every process, it
    /// is refused. False when there is none (another user's tokens are as invisible as unknown
    /// ones; one revoked or expired is gone).
    func revoke(_ id: UUID, of userID: UUID) async throws -> Bool {
        try await db.execute("""
            UPDATE sessions SET revoked_at = now()
            WHERE id = \(id) AND user_id = \(userID) AND kind = 'pat' AND revoked_at IS NULL AND expires_at > now()
            """) > 0
    }
}
