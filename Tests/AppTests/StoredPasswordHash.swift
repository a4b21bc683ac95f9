import App
import AppTesting
import Foundation
import Postgres
import XCTest

extension TestApp {
    /// The password hash stored for the user `id`, read straight from the database.
    func storedPasswordHash(of id: UUID) async throws -> String {
        let rows = try await til.db.query("SELECT password_hash FROM users WHERE id = \(id)")
        return try XCTUnwrap(rows.first, "no user \(id)").decode(column: "password_hash", as: String.self)
    }
}
