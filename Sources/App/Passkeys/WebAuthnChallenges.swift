import Crypt
import Foundation
import Postgres
import Web

/// The challenges of WebAuthn ceremonies (`webauthn_challenges`): 32 random bytes each, stored
/// only as their SHA-256, living five minutes, and single-use. A ceremony's answer names its
/// challenge inside clientDataJSON; `consume` finds the row by that challenge's digest and
/// deletes it in the same statement, so of two answers racing with one challenge (on one
/// process or two) exactly one gets the row, and a replay finds nothing.
struct WebAuthnChallenges: Sendable {
    let db: PostgresClient
    static let lifetime: Duration = .seconds(300)
    static let byteCount = 32
    /// Live login challenges one address may hold at once. Anyone may ask for login options,
    /// and each one is a row for five minutes: this bounds what one address can make the
    /// table hold (a person signing in needs one or two).
    static let livePerAddress = 100

    enum Purpose: String, Sendable {
        case registration, authentication
    }

    /// A challenge drawn but not yet stored, with the SQL that stores it: callers that read
    /// something in the same statement (the options' credential lists) embed `insert`.
    struct Fresh: Sendable {
        let bytes = SecureRandom.bytes(count: WebAuthnChallenges.byteCount)
        /// The address that asked, for a login's challenge (`livePerAddress`); nil otherwise.
        var requestedFrom: String?
        var digest: String { SHA256.hex(bytes) }
        var encoded: String { Base64URL.encode(bytes) }

        /// `INSERT` of this challenge for `purpose`, tied to `userID` and `mfaDigest` when given;
        /// `named` for a login that named a user (`userID` is then its account, if any).
        func insert(_ purpose: Purpose, userID: PostgresQuery, named: Bool = false, mfaDigest: String? = nil) -> PostgresQuery {
            """
            INSERT INTO webauthn_challenges (digest, purpose, user_id, named, mfa_digest, requested_from, expires_at)
            VALUES (\(digest), \(purpose.rawValue), \(userID), \(named), \(mfaDigest), \(requestedFrom),
                    now() + \(WebAuthnChallenges.lifetime.seconds) * interval '1 second')
            """
        }
    }

    /// Stores `challenge` for `purpose`, tied to no user: a login that names nobody.
    func store(_ challenge: Fresh, _ purpose: Purpose) async throws {
        try await db.execute(challenge.insert(purpose, userID: "NULL"))
    }

    /// Refuses a new login challenge for `address` (429) while it holds `livePerAddress` live
    /// ones already. Counted before the insert, so a burst sent at once may pass the bound by
    /// its own size; it still stops the table growing without end.
    func checkRoom(for address: String) async throws {
        let rows = try await db.query("""
            SELECT count(*)::int AS live FROM webauthn_challenges
            WHERE requested_from = \(address) AND expires_at > now()
            """)
        guard try rows.first?.decode(column: "live", as: Int.self) ?? 0 >= Self.livePerAddress else { return }
        throw Abort.tooMany("passkey sign-in attempts from this address", retryAfter: Self.lifetime.seconds)
    }

    /// What a consumed challenge was issued for.
    struct Issued: Sendable {
        let purpose: Purpose
        let userID: UUID?
        /// The login named a user: only `userID`'s passkeys answer it (none when nil).
        let named: Bool
        let mfaDigest: String?
    }

    /// Spends the challenge `bytes` (from clientDataJSON): the row it names, if it was live
    /// and issued for `purpose`; nil otherwise. Deleted whatever it was: a challenge answered
    /// once, right or wrong, is never answered again.
    func consume(_ bytes: [UInt8], for purpose: Purpose) async throws -> Issued? {
        guard bytes.count == Self.byteCount else { return nil }
        let digest = SHA256.hex(bytes)
        let rows = try await db.query("""
            DELETE FROM webauthn_challenges WHERE digest = \(digest)
            RETURNING digest, purpose, user_id, named, mfa_digest, expires_at > now() AS live
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest),
              try row.decode(column: "live", as: Bool.self),
              let issued = Purpose(rawValue: try row.decode(column: "purpose", as: String.self)), issued == purpose
        else { return nil }
        return Issued(
            purpose: issued, userID: try row.decode(column: "user_id", as: UUID?.self),
            named: try row.decode(column: "named", as: Bool.self), mfaDigest: try row.decode(column: "mfa_digest", as: String?.self))
    }
}
