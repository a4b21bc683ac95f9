import Crypt
import Foundation
import Postgres
import TILWire
import Web

/// Passkeys as their owner lists, names and removes them, and the credential lists the
/// ceremonies' options carry. Another user's passkeys are as invisible as unknown ones.
struct PasskeyRepository: Sendable {
    let db: PostgresClient
    /// Passkeys one user may hold: the list is answered whole, never paged.
    static let maxPerUser = 20

    func list(of userID: UUID) async throws -> [PasskeySummary] {
        try await db.query("""
            SELECT \(unescaped: Self.summaryColumns) FROM passkeys WHERE user_id = \(userID) ORDER BY seq
            """).map(Self.summary)
    }

    /// The passkey renamed; nil when `userID` has none with that id.
    func rename(_ id: UUID, of userID: UUID, to name: String) async throws -> PasskeySummary? {
        try await db.query("""
            UPDATE passkeys SET name = \(name) WHERE id = \(id) AND user_id = \(userID)
            RETURNING \(unescaped: Self.summaryColumns)
            """).first.map(Self.summary)
    }

    /// Removes one passkey of `userID`, queuing the owner's notice (`AccountChangeMail`) in the
    /// same transaction; false when there is none with that id.
    func remove(_ id: UUID, of userID: UUID) async throws -> Bool {
        try await db.withTransaction { tx in
            guard try await tx.execute("DELETE FROM passkeys WHERE id = \(id) AND user_id = \(userID)") > 0 else { return false }
            try await AccountChangeMail.passkeyRemoved.queue(for: userID, on: tx)
            return true
        }
    }

    /// Removes every passkey of `userID` on `runner` (`til-server users mfa-reset`); how many.
    static func removeAll(of userID: UUID, on runner: any PostgresQueryable) async throws -> Int {
        try await runner.execute("DELETE FROM passkeys WHERE user_id = \(userID)")
    }

    /// Stores a registration's challenge for `userID` and reads the user's passkeys, in one
    /// statement: the creation options' `excludeCredentials`.
    func registrationChallenge(_ challenge: WebAuthnChallenges.Fresh, for userID: UUID) async throws -> [CredentialDescriptor] {
        try await self.challenge(challenge, .registration, for: userID)
    }

    /// Stores a second factor's challenge for `userID`, tied to the mfaToken's digest, and reads
    /// the user's passkeys: the request options' `allowCredentials`.
    func secondFactorChallenge(_ challenge: WebAuthnChallenges.Fresh, for userID: UUID, mfaDigest: String) async throws -> [CredentialDescriptor] {
        try await self.challenge(challenge, .authentication, for: userID, mfaDigest: mfaDigest)
    }

    /// `challenge` stored for `userID` and the user's passkeys, in one statement.
    private func challenge(
        _ challenge: WebAuthnChallenges.Fresh, _ purpose: WebAuthnChallenges.Purpose, for userID: UUID, mfaDigest: String? = nil
    ) async throws -> [CredentialDescriptor] {
        try await db.query("""
            WITH challenge AS (\(challenge.insert(purpose, userID: "\(userID)", named: true, mfaDigest: mfaDigest)))
            SELECT credential_id, array_to_string(transports, ',') AS transports
            FROM passkeys WHERE user_id = \(userID) ORDER BY seq
            """).map(Self.descriptor)
    }

    /// What a login's options learn about `username`: its passkeys (empty for an unknown user
    /// or one without any) and the name as PostgreSQL folds it, with the challenge stored,
    /// tied to the user when there is one. One statement whatever the answer, so an unknown
    /// name costs what a known one does.
    func loginChallenge(
        _ challenge: WebAuthnChallenges.Fresh, username: String
    ) async throws -> (folded: String, credentials: [CredentialDescriptor]) {
        let claimed = String(UsernameRules.normalized(username).unicodeScalars.prefix(257))
        let rows = try await db.query("""
            WITH account AS (
                SELECT id FROM users WHERE octet_length(\(claimed)) <= 256 AND lower(username) = lower(\(claimed))
            ), challenge AS (\(challenge.insert(.authentication, userID: "(SELECT id FROM account)", named: true)))
            SELECT lower(left(\(claimed), 256)) AS folded, p.credential_id, array_to_string(p.transports, ',') AS transports
            FROM (SELECT 1) AS one LEFT JOIN passkeys p ON p.user_id = (SELECT id FROM account)
            ORDER BY p.seq
            """)
        let folded = try rows.first?.decode(column: "folded", as: String.self) ?? claimed
        let credentials = try rows.filter { try $0.decode(column: "credential_id", as: [UInt8]?.self) != nil }.map(Self.descriptor)
        return (folded, credentials)
    }

    static let summaryColumns = "id, credential_id, name, created_at, last_used_at, backed_up"

    static func summary(_ row: PostgresRow) throws -> PasskeySummary {
        PasskeySummary(
            id: try row.decode(column: "id", as: UUID.self),
            credentialId: Base64URL.encode(try row.decode(column: "credential_id", as: [UInt8].self)),
            name: try row.decode(column: "name", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self),
            backedUp: try row.decode(column: "backed_up", as: Bool.self))
    }

    private static func descriptor(_ row: PostgresRow) throws -> CredentialDescriptor {
        CredentialDescriptor(
            id: Base64URL.encode(try row.decode(column: "credential_id", as: [UInt8].self)),
            transports: (try row.decode(column: "transports", as: String?.self) ?? "").split(separator: ",").map(String.init))
    }
}
