import Foundation
import Postgres
import Web

/// Who is an administrator (`users.is_admin`): only they may hold `clients:write`, the scope
/// that registers OAuth clients. The seeded `admin` is one; `til-server users admin` changes it.
struct AdminRole: Sendable {
    let db: any PostgresQueryable

    /// True when the user exists and is an administrator.
    func isAdmin(_ userID: UUID) async throws -> Bool {
        try await db.query("SELECT is_admin FROM users WHERE id = \(userID)").first?.decode(column: "is_admin", as: Bool.self) ?? false
    }

    /// Throws 400 `invalid_scope` when `scopes` holds `clients:write` and `userID` is no
    /// administrator: asked for by anyone else, it is refused, never silently dropped.
    func check(_ scopes: [Scope], for userID: UUID) async throws {
        guard scopes.contains(.clientsWrite), try await !isAdmin(userID) else { return }
        throw Scope.invalidScope("'\(Scope.clientsWrite)' is granted to administrators only")
    }

    /// Makes `userID` an administrator or not. Taking the role away also ends the sessions that
    /// hold `clients:write`, so no token keeps a power its holder lost. How many sessions ended.
    func set(_ isAdmin: Bool, for userID: UUID) async throws -> Int {
        try await db.query("""
            WITH flag AS (UPDATE users SET is_admin = \(isAdmin) WHERE id = \(userID))
            UPDATE sessions SET revoked_at = now()
            WHERE NOT \(isAdmin) AND user_id = \(userID) AND revoked_at IS NULL
              AND ' ' || scopes || ' ' LIKE \("% \(Scope.clientsWrite.rawValue) %")
            RETURNING id
            """).count
    }
}
