import AppTesting
import Crypt
import Foundation
import Postgres
import WebAuthn
import WebAuthnTesting
@testable import App

/// Passkey rows written straight into the test database, for the tests of what lists, names
/// and removes them (the ceremonies' own tests register real ones).
enum PasskeyRows {
    /// A passkey of `userID` with a random credential id; its id.
    @discardableResult
    static func insert(
        for userID: UUID, name: String = "Fixture key", credentialID: [UInt8] = SecureRandom.bytes(count: 32),
        transports: String = "internal,hybrid", on app: TestApp
    ) async throws -> UUID {
        let id = UUID()
        try await app.til.db.execute("""
            INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, transports,
                                  backup_eligible, backed_up, attestation_format, name)
            VALUES (\(id), \(userID), \(credentialID), \([UInt8](repeating: 1, count: 77)), -7, 0, string_to_array(\(transports), ','),
                    true, true, 'none', \(name))
            """)
        return id
    }

    /// The credential of `authenticator` as a passkey of `userID`, as its registration would store it.
    static func insert(for userID: UUID, authenticator: SoftwareAuthenticator, on app: TestApp) async throws -> UUID {
        let id = UUID()
        try await app.til.db.execute("""
            INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, transports,
                                  backup_eligible, backed_up, attestation_format, name)
            VALUES (\(id), \(userID), \(authenticator.credentialID), \(try authenticator.publicKeyCOSE()),
                    \(authenticator.algorithm.rawValue), 0, '{internal}', false, false, 'none', 'Fixture authenticator')
            """)
        return id
    }

    /// How many challenges are stored (live or not).
    static func challengeCount(on app: TestApp) async throws -> Int {
        try await app.til.db.query("SELECT count(*) AS n FROM webauthn_challenges").first?.decode(column: "n", as: Int.self) ?? 0
    }
}
