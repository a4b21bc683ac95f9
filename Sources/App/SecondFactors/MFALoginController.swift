import Foundation
import Web

/// `POST /api/users/login/mfa`: the second step of a password login for an account with TOTP
/// on. The first step (`POST /api/users/login`) answered 401 with an mfaToken; this one takes
/// it with a TOTP code or a recovery code and answers the usual token pair, its session
/// recording how it was proven (`amr`).
struct MFALoginController: RouteCollection {
    let secondFactors: SecondFactors
    let tokens: TokenRepository
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("api", "users", "login").post("mfa", use: complete)
    }

    func complete(_ request: Request) async throws -> Response {
        let body = try request.content.decode(MFALoginRequest.self)
        let passkey = try request.content.decode(PasskeyProofField.self).passkey
        guard let proof = try passkey.map({ try PasskeyProofField.proof($0, besides: body) })
            ?? SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        else {
            throw Abort(.badRequest, reason: "Give 'code' (from the authenticator app), 'recoveryCode' or 'passkey' with the 'mfaToken'.")
        }
        let success = try await secondFactors.complete(body.mfaToken, with: proof, request)
        guard var token = try await tokens.startSession(
            for: success.user, scopes: success.scopes, userAgent: request.storedUserAgent, amr: success.amr)
        else {  // the password changed since the first step
            audit.record(.mfaLoginFailed, request, userID: success.user.id)
            throw SecondFactors.tokenGone
        }
        token.recoveryCodesRemaining = success.recoveryCodesRemaining
        audit.record(.mfaLoginSucceeded, request, userID: success.user.id, sessionID: token.id)
        return try token.noStoreResponse(for: request)
    }
}

extension SecondFactors {
    /// The answer to a correct password when a second factor is needed: 401 with the Basic
    /// challenge, the usual error fields, `mfaRequired`, a new mfaToken carrying `scopes`, and
    /// the methods `user` has. No token is issued.
    func secondStep(for user: User, scopes: [Scope], _ request: Request) async throws -> Response {
        let token = try await challenge(for: user, scopes: scopes)
        let body = MFARequired(mfaToken: token, methods: try await methods(of: user.id).map(\.rawValue))
        audit.record(.mfaRequired, request, userID: user.id)
        var response = try ContentResponse(body, status: .unauthorized).encodeResponse(for: request).notStored()
        for (name, value) in BasicLogin.challenge { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}
