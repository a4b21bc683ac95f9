import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The reset routes' real answers, success and refusal, validated against the document the
/// server serves: every status listed, every body valid, every required header there.
final class PasswordResetContractTests: XCTestCase {
    func testTheResetAnswersMatchTheDocument() async throws {
        try await withMFAApp { app, clock in
            let contract = try await OpenAPIContract.served(by: app)
            let (request, confirm, options) = ("/api/users/password-reset", "/api/users/password-reset/confirm", "/api/users/password-reset/passkey/options")
            let (user, email) = try await app.userWithVerifiedEmail()
            contract.check(try await app.requestReset(user.username), .post, request)
            contract.check(try await app.requestReset(""), .post, request)
            contract.check(try await app.client.send(.post, request, body: Array("login=x".utf8)), .post, request)
            let token = try await app.newestResetToken(mailedTo: email)
            contract.check(try await app.confirmReset(["token": token, "newPassword": "short"]), .post, confirm)
            contract.check(try await app.confirmReset(["token": token, "newPassword": "contract-secret"]), .post, confirm)
            contract.check(try await app.confirmReset(["token": token, "newPassword": "contract-secret"]), .post, confirm)

            let (enrolled, totpToken) = try await PasswordResetSecondFactorTests.resetOfEnrolledUser(app, clock)
            let first = try await app.confirmReset(["token": totpToken, "newPassword": "contract-secret"])
            contract.check(first, .post, confirm)
            let mfaToken = try first.decode(MFARequired.self).mfaToken
            contract.check(try await app.client.send(.post, options, json: ["token": totpToken, "mfaToken": mfaToken]), .post, options)
            contract.check(try await app.client.send(.post, options, json: ["token": totpToken, "mfaToken": "gone"]), .post, options)
            contract.check(try await app.confirmReset(["token": totpToken, "mfaToken": mfaToken, "code": "000000"]), .post, confirm)
            contract.check(try await app.confirmReset(["token": totpToken, "mfaToken": mfaToken, "code": enrolled.code(at: clock)]), .post, confirm)

            for index in 0..<app.til.configuration.passwordReset.addressLimit { _ = try await app.requestReset("filler-\(index)") }
            contract.check(try await app.requestReset(user.username), .post, request)
        }
    }
}
