import Foundation
import Web

/// The sign-in's second step on the pages (issue 20): after a correct password for an account
/// with TOTP on, no session yet but the code step (`SecondStepForm`), carrying the login's
/// mfaToken (`SecondFactors.challenge`: single-use, 5 minutes, ended by its fifth wrong code)
/// and the CSRF token of the pre-login cookie. `POST /login/mfa` checks the code or recovery
/// code through `SecondFactors.complete` (the login throttle, replay refusal, audit), then
/// opens the browser session with its `amr` and goes on as a password-only sign-in does.
extension LoginPagesController {
    /// The code step for `user`, whose password was just proven.
    func beginSecondStep(for user: User, returnTo: String?, _ request: Request) async throws -> Response {
        let mfaToken = try await secondFactors.challenge(for: user, scopes: [])
        audit.record(.mfaRequired, request, userID: user.id)
        return try await secondStepPage(request, mfaToken: mfaToken, userID: user.id, returnTo: returnTo)
    }

    func completeSecondStep(_ request: Request) async throws -> Response {
        let fields = try FormFields(form: request)
        try CSRFToken.check(fields, boundTo: request.cookie(cookies.preLoginName))
        let returnTo = try Self.returnTo(fields)
        let mfaToken = try fields.single("mfa_token", maxBytes: MFAChallengeRepository.maxTokenBytes) ?? ""
        let code = try fields.single("code", maxBytes: SecondFactorInput.maxBytes)
        let recoveryCode = try fields.single("recovery_code", maxBytes: SecondFactorInput.maxBytes)
        guard !mfaToken.isEmpty, let userID = try await secondFactors.challenges.user(of: mfaToken) else {
            return try await startAgain(request, returnTo: returnTo, "This sign-in has expired. Enter your password again.")
        }
        func again(_ status: HTTPStatus, _ error: String, headers: HTTPHeaders = [:]) async throws -> Response {
            try await secondStepPage(
                request, mfaToken: mfaToken, userID: userID, returnTo: returnTo, status: status, error: error, headers: headers)
        }
        let proof: SecondFactorProof
        do {
            guard let given = try SecondFactorInput.proof(code: code, recoveryCode: recoveryCode) else {
                return try await again(.badRequest, "Enter the code from your authenticator app.")
            }
            proof = given
        } catch let refusal as Abort where refusal.status == .badRequest {
            return try await again(.badRequest, recoveryCode == nil
                ? "Enter the 6 digits your authenticator app shows for TIL."
                : "Enter one of your recovery codes: \(RecoveryCode.length) letters and digits.")
        }
        let success: SecondFactorSuccess
        do {
            success = try await secondFactors.complete(mfaToken, with: proof, request)
        } catch let refusal as SecondStepRefusal {
            switch refusal {
            case .tokenGone: return try await startAgain(request, returnTo: returnTo, "This sign-in has expired. Enter your password again.")
            case .wrongCodeEndedToken: return try await startAgain(request, returnTo: returnTo, "Too many wrong codes. Enter your password again.")
            case .wrongCode: return try await again(.unauthorized, SecondFactors.wrongCode)
            }
        } catch let refusal as Abort where refusal.status == .tooManyRequests {
            return try await again(.tooManyRequests, refusal.reason, headers: refusal.headers)
        }
        guard let session = try await sessions.start(for: success.user, userAgent: request.storedUserAgent, amr: success.amr) else {
            // The password changed since the first step: what it proved is gone.
            return try await startAgain(request, returnTo: returnTo, "This sign-in has expired. Enter your password again.")
        }
        audit.record(.mfaLoginSucceeded, request, userID: success.user.id, sessionID: session.id)
        let otherwise = success.recoveryCodesRemaining == nil ? AccountPageController.path : AccountNotice.recoveryCodeUsed.location
        return try await enter(session, returnTo: returnTo, request, otherwise: otherwise)
    }

    /// The code step, with the methods `userID` has: the recovery-code form while codes are
    /// left, the passkey button (and the script that shows it) when passkeys are registered.
    private func secondStepPage(
        _ request: Request, mfaToken: String, userID: UUID, returnTo: String?, status: HTTPStatus = .ok, error: String? = nil,
        headers: HTTPHeaders = [:]
    ) async throws -> Response {
        let (secret, cookie) = cookies.preLogin(for: request)
        let context = try await context(returnTo)
        let methods = try await secondFactors.methods(of: userID)
        let form = SecondStepForm(
            csrfToken: CSRFToken.token(boundTo: secret), mfaToken: mfaToken, returnTo: returnTo, error: error,
            clientName: context.clientName, offersRecoveryCode: methods.contains(.recoveryCode),
            offersPasskey: methods.contains(.passkey))
        var policy = context.policy
        policy.runsScript = form.offersPasskey
        var headers = headers
        headers.remove(name: "WWW-Authenticate")  // a page, not a Basic challenge
        headers.setCookie(cookie)
        return PageResponse(status: status, html: form.html, policy: policy, headers: headers).response
    }

    /// The sign-in form again, with why.
    private func startAgain(_ request: Request, returnTo: String?, _ error: String) async throws -> Response {
        loginPage(request, returnTo: returnTo, context: try await context(returnTo), status: .unauthorized, error: error).response
    }
}
