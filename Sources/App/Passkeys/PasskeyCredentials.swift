import Foundation
import Postgres
import TILWire
import WebAuthn

/// The verification side of `passkeys`: storing what a registration verified, finding a
/// credential (with its owner) by the id an assertion names, and recording an assertion under
/// the guard that the counter is still the one verified against.
struct PasskeyCredentials: Sendable {
    let db: PostgresClient

    /// A stored passkey as an assertion needs it, with its owner.
    struct Found: Sendable {
        let id: UUID
        let owner: User
        let stored: StoredCredential
    }

    /// Stores `credential` for `userID` named `name`, unless the user already holds
    /// `PasskeyRepository.maxPerUser`; nil then. A credential id already stored (this user's
    /// or anyone's) violates `passkeys_credential_id_key`: 409 naming `credential`. The owner's
    /// notice (`AccountChangeMail.passkeyAdded`) is queued in the same transaction.
    func insert(_ credential: RegisteredCredential, for userID: UUID, name: String) async throws -> PasskeySummary? {
        try await db.withTransaction { tx in
            let stored = try await insert(credential, for: userID, name: name, on: tx)
            if stored != nil { try await AccountChangeMail.passkeyAdded(name: name).queue(for: userID, on: tx) }
            return stored
        }
    }

    /// The insert itself, on `runner`.
    private func insert(
        _ credential: RegisteredCredential, for userID: UUID, name: String, on runner: any PostgresQueryable
    ) async throws -> PasskeySummary? {
        let transports = credential.transports.filter { $0.allSatisfy { $0.isLetter && $0.isASCII || $0 == "-" } }
        let rows = try await runner.query("""
            INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, transports,
                                  backup_eligible, backed_up, attestation_format, name)
            SELECT \(UUID()), \(userID), \(credential.id), \(credential.publicKey), \(credential.algorithm.rawValue),
                   \(Int64(credential.signCount)), string_to_array(\(transports.joined(separator: ",")), ','),
                   \(credential.backupEligible), \(credential.backedUp), \(credential.attestationFormat), \(name)
            WHERE (SELECT count(*) FROM passkeys WHERE user_id = \(userID)) < \(PasskeyRepository.maxPerUser)
            RETURNING \(unescaped: PasskeyRepository.summaryColumns)
            """)
        return try rows.first.map(PasskeyRepository.summary)
    }

    /// The passkey whose credential id is `credentialID`, with its owner; nil when none is.
    func find(_ credentialID: [UInt8]) async throws -> Found? {
        guard !credentialID.isEmpty else { return nil }
        let rows = try await db.query("""
            SELECT p.id AS passkey_id, p.public_key, p.algorithm, p.sign_count, p.backup_eligible,
                   u.id, u.name, u.username, u.password_hash AS "passwordHash"
            FROM passkeys p JOIN users u ON u.id = p.user_id
            WHERE p.credential_id = \(credentialID)
            """)
        guard let row = rows.first,
              let algorithm = COSEAlgorithm(rawValue: try row.decode(column: "algorithm", as: Int.self)),
              let count = UInt32(exactly: try row.decode(column: "sign_count", as: Int64.self))
        else { return nil }
        return Found(
            id: try row.decode(column: "passkey_id", as: UUID.self), owner: try UserRepository.user(row),
            stored: StoredCredential(
                publicKey: try row.decode(column: "public_key", as: [UInt8].self), algorithm: algorithm, signCount: count,
                backupEligible: try row.decode(column: "backup_eligible", as: Bool.self)))
    }

    /// Records a verified assertion: the new counter, backup flags and time of use, only while
    /// the stored counter is still the one `found` was verified against. False when another
    /// assertion got there first: of two racing with one counter value, one is recorded.
    func record(_ assertion: VerifiedAssertion, of found: Found) async throws -> Bool {
        try await db.execute("""
            UPDATE passkeys SET sign_count = \(Int64(assertion.signCount)), backup_eligible = \(assertion.backupEligible),
                                backed_up = \(assertion.backedUp), last_used_at = now()
            WHERE id = \(found.id) AND sign_count = \(Int64(found.stored.signCount))
            """) == 1
    }
}
