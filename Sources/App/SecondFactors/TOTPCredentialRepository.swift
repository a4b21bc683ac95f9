import Crypt
import Foundation
import OneTimePasswords
import Postgres
import Web

/// A user's TOTP secret in PostgreSQL, sealed with `SECRET_KEY` (`AtRestCipher`, a purpose
/// of its own, the user id as associated data: a sealed secret copied to another user's row
/// does not open). A row without `confirmed_at` is a pending enrolment; `last_step` is the
/// last time step a code was accepted for, so no process accepts that step's code again.
struct TOTPCredentialRepository: Sendable {
    let db: PostgresClient
    let secretKey: SecretKey?

    static let purpose = "til totp secrets v1"

    /// A stored credential, its secret opened.
    struct Credential: Sendable {
        let secret: [UInt8]
        let sealed: [UInt8]
        let confirmed: Bool
        let lastStep: Int64?
    }

    /// Stores `secret` as `userID`'s pending enrolment, replacing an older pending one; false
    /// when TOTP is confirmed already (nothing changes).
    func startEnrolment(of userID: UUID, secret: [UInt8]) async throws -> Bool {
        let sealed = try cipher().seal(secret, binding: Self.binding(userID))
        return try await db.execute("""
            INSERT INTO totp_credentials (user_id, sealed_secret) VALUES (\(userID), \(sealed))
            ON CONFLICT (user_id) DO UPDATE SET sealed_secret = EXCLUDED.sealed_secret, created_at = now(), last_step = NULL
            WHERE totp_credentials.confirmed_at IS NULL
            """) > 0
    }

    /// `userID`'s credential, pending or confirmed; nil without one.
    func credential(of userID: UUID, on runner: (any PostgresQueryable)? = nil) async throws -> Credential? {
        let rows = try await (runner ?? db).query("""
            SELECT encode(sealed_secret, 'hex') AS sealed, confirmed_at IS NOT NULL AS confirmed, last_step
            FROM totp_credentials WHERE user_id = \(userID)
            """)
        guard let row = rows.first else { return nil }
        let sealed = Self.bytes(hex: try row.decode(column: "sealed", as: String.self))
        let secret: [UInt8]
        do {
            secret = try cipher().open(sealed, binding: Self.binding(userID))
        } catch {
            throw Abort(.internalServerError, reason: "The stored TOTP secret does not open with this SECRET_KEY.")
        }
        return Credential(
            secret: secret, sealed: sealed, confirmed: try row.decode(column: "confirmed", as: Bool.self),
            lastStep: try row.decode(column: "last_step", as: Int64?.self))
    }

    /// True when `userID` has confirmed TOTP.
    func isConfirmed(_ userID: UUID) async throws -> Bool {
        try await db.query("SELECT \(Self.isOn(for: userID)) AS totp").first?.decode(column: "totp", as: Bool.self) ?? false
    }

    /// SQL that is true when `userID` has confirmed TOTP, for statements that read it beside
    /// something else (a proven password's, a status's).
    static func isOn(for userID: UUID) -> PostgresQuery {
        "EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = \(userID) AND confirmed_at IS NOT NULL)"
    }

    /// Records `step` as used for `userID`'s confirmed credential, unless that step or a later
    /// one already was: one statement, so of two requests (two processes) with one code exactly
    /// one gets true.
    func accept(step: Int64, of userID: UUID, on runner: any PostgresQueryable) async throws -> Bool {
        try await runner.execute("""
            UPDATE totp_credentials SET last_step = \(step)
            WHERE user_id = \(userID) AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < \(step))
            """) > 0
    }

    /// Confirms the pending enrolment whose sealed secret is `sealed` (the one the code was
    /// checked against, not a newer one started meanwhile), with `step` used; false when it is
    /// no longer pending.
    func confirm(_ userID: UUID, sealed: [UInt8], step: Int64, on runner: any PostgresQueryable) async throws -> Bool {
        try await runner.execute("""
            UPDATE totp_credentials SET confirmed_at = now(), last_step = \(step)
            WHERE user_id = \(userID) AND confirmed_at IS NULL AND sealed_secret = \(sealed)
            """) > 0
    }

    /// Removes `userID`'s TOTP, confirmed or pending, their recovery codes and pending mfaTokens.
    @discardableResult
    func removeAll(of userID: UUID, on runner: any PostgresQueryable) async throws -> Int {
        try await runner.execute("""
            WITH codes AS (DELETE FROM recovery_codes WHERE user_id = \(userID)),
                 challenges AS (DELETE FROM mfa_challenges WHERE user_id = \(userID))
            DELETE FROM totp_credentials WHERE user_id = \(userID)
            """)
    }

    private func cipher() throws -> AtRestCipher {
        guard let secretKey else { throw Abort(.serviceUnavailable, reason: "SECRET_KEY is not configured: TOTP is unavailable.") }
        return AtRestCipher(secret: secretKey, purpose: Self.purpose)
    }

    private static func binding(_ userID: UUID) -> [UInt8] {
        Array(userID.uuidString.lowercased().utf8)
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { index in
            UInt8(Self.nibble(digits[index]) << 4 | Self.nibble(digits[index + 1]))
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10
    }
}
