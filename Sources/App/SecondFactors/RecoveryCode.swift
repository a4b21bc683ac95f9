import Crypt
import Foundation
import OneTimePasswords
import Postgres

/// Recovery codes (ASVS 6.5.2): ten per set, each 120 bits from OpenSSL written as 24 base32
/// characters in six dash-separated groups (`ABCD-EFGH-…`), stored only as SHA-256 digests of
/// the normalised form (`SecondFactorInput.recoveryCode`). 120 bits make a brute-force guess
/// hopeless without a slow hash, and a single-use code cannot be replayed: spending one is a
/// `DELETE … RETURNING`, which exactly one request wins.
enum RecoveryCode {
    static let count = 10
    static let length = 24
    private static let byteCount = 15  // 120 bits: exactly 24 base32 characters

    /// A fresh code, as shown to the user.
    static func generate() -> String {
        let text = Base32.encode(SecureRandom.bytes(count: byteCount))
        return stride(from: 0, to: length, by: 4).map { start in
            String(text.dropFirst(start).prefix(4))
        }.joined(separator: "-")
    }

    /// The digest stored for `code` in any accepted spelling (normalised first).
    static func digest(ofNormalized code: String) -> String {
        SHA256.hex(of: code)
    }

    static func isAlphabet(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
    }
}

/// A user's recovery codes in PostgreSQL.
struct RecoveryCodeRepository: Sendable {
    let db: PostgresClient

    /// Replaces `userID`'s whole set with ten new codes in one statement, on `runner` (a confirmation's or a
    /// regeneration's transaction); the codes, shown once.
    func replace(for userID: UUID, on runner: any PostgresQueryable) async throws -> [String] {
        let codes = (0..<RecoveryCode.count).map { _ in RecoveryCode.generate() }
        let digests = try codes.map { RecoveryCode.digest(ofNormalized: try SecondFactorInput.recoveryCode($0)) }
        try await runner.execute("""
            WITH old AS (DELETE FROM recovery_codes WHERE user_id = \(userID))
            INSERT INTO recovery_codes (id, user_id, digest)
            SELECT gen_random_uuid(), \(userID), digest FROM unnest(string_to_array(\(digests.joined(separator: " ")), ' ')) AS digest
            """)
        return codes
    }

    /// Spends `normalized` (one of `userID`'s codes) on `runner`: how many remain, or nil when
    /// it is not one of theirs (or another request spent it first). The digest found is
    /// compared again in constant time: the index lookup is not meant to be the check.
    func spend(_ normalized: String, of userID: UUID, on runner: any PostgresQueryable) async throws -> Int? {
        let digest = RecoveryCode.digest(ofNormalized: normalized)
        let rows = try await runner.query("""
            WITH spent AS (DELETE FROM recovery_codes WHERE user_id = \(userID) AND digest = \(digest) RETURNING digest)
            SELECT digest, (SELECT count(*)::int FROM recovery_codes WHERE user_id = \(userID)) - 1 AS remaining FROM spent
            """)
        guard let row = rows.first, ConstantTime.equals(try row.decode(column: "digest", as: String.self), digest) else { return nil }
        return try row.decode(column: "remaining", as: Int.self)
    }
}
