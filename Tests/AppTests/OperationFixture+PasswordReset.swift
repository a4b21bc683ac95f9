import AppTesting
import Crypt
import Foundation
import HTTP1
import Postgres
@testable import App

extension OperationFixture {
    /// A live reset of `user`'s password, stored as a mail's request would store it, waiting
    /// for its second step: its token and the mfaToken bound to it.
    static func storePasswordReset(for user: User, on app: TestApp) async throws -> (token: String, mfaToken: String) {
        let token = SecureRandom.token()
        try await app.til.db.execute("""
            INSERT INTO password_resets (digest, user_id, expires_at)
            VALUES (\(SHA256.hex(of: token)), \(user.id), now() + interval '30 minutes')
            """)
        let mfaToken = try await MFAChallengeRepository(db: app.til.db, clock: .system)
            .issue(for: user.id, scopes: [], passwordReset: SHA256.hex(of: token))
        return (token, mfaToken)
    }

    /// The body fields only a live reset makes valid: for the confirm, the fixture's reset
    /// token and a new password; for the passkey options, the token and its second step's mfaToken.
    func passwordResetFields(of operation: DocumentedOperation) -> [String: JSONValue] {
        switch "\(operation.method.rawValue) \(operation.path)" {
        case "POST /api/users/password-reset/confirm":
            ["token": .string(passwordReset.token), "newPassword": .string("fixture-new-password")]
        case "POST /api/users/password-reset/passkey/options":
            ["token": .string(passwordReset.token), "mfaToken": .string(passwordReset.mfaToken)]
        default:
            [:]
        }
    }
}
