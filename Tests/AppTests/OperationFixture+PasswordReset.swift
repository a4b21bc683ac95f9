import AppTesting
import Crypt
import Foundation
import HTTP1
import Postgres
@testable import App

extension OperationFixture {
    /// A live reset of `user`'s password, stored as a mail's request would store it; its token.
    static func storePasswordReset(for user: User, on app: TestApp) async throws -> String {
        let token = SecureRandom.token()
        try await app.til.db.execute("""
            INSERT INTO password_resets (digest, user_id, expires_at)
            VALUES (\(SHA256.hex(of: token)), \(user.id), now() + interval '30 minutes')
            """)
        return token
    }

    /// The body fields of a reset's confirm, which only a live reset makes valid: the
    /// fixture's reset token and a new password.
    func passwordResetFields(of operation: DocumentedOperation) -> [String: JSONValue] {
        guard "\(operation.method.rawValue) \(operation.path)" == "POST /api/users/password-reset/confirm" else { return [:] }
        return ["token": .string(passwordResetToken), "newPassword": .string("fixture-new-password")]
    }
}
