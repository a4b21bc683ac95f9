import Crypt
import Web
import WebAuthn

/// `/api/users/password-reset`: a link by mail for a forgotten password, and its confirmation.
/// No bearer token: whoever holds the mailbox (and the second factor, if any) may reset.
///
/// The request answers the same 202 for every login, known or not, with or without a verified
/// address, within the account's limit or past it; only the address's own limit shows (429).
/// A server that cannot send mail says so first (503), before anything is looked up, so that
/// answer is the same for every login too.
struct PasswordResetController: RouteCollection {
    let requests: PasswordResetRequests
    let completion: PasswordResetCompletion
    let mail: MailSettings
    /// The options of a passkey as the reset's second factor.
    let passkeyOptions: PasskeyLoginOptions

    func boot(routes: any RoutesBuilder) throws {
        let reset = routes.grouped("api", "users", "password-reset")
        reset.post(use: requestLink)
        reset.post("confirm", use: confirm)
        reset.post("passkey", "options", use: passkeyOptionsForSecondStep)
    }

    func requestLink(_ request: Request) async throws -> Response {
        try mail.requireSending()
        let body = try request.content.decode(PasswordResetRequest.self)
        try Validation.text(body.login, field: "login", max: PasswordResetRequests.maxLoginBytes)
        try await requests.request(login: body.login, request)
        return try ContentResponse(Self.accepted(lifetime: requests.settings.ttlInWords), status: .accepted)
            .encodeResponse(for: request).notStored()
    }

    /// 204 once reset; 401 `MFARequired` when the account's second factor must follow.
    func confirm(_ request: Request) async throws -> Response {
        let body = try request.content.decode(PasswordResetConfirmation.self)
        if let newPassword = body.newPassword { try completion.passwords.rules.validate(newPassword, field: "newPassword") }
        let passkey = try request.content.decode(PasskeyProofField.self).passkey
        guard let mfaToken = body.mfaToken else {
            guard body.code == nil, body.recoveryCode == nil, passkey == nil else {
                throw Abort(.badRequest, reason: "Give 'code', 'recoveryCode' or 'passkey' with the 'mfaToken' the first confirm answered.")
            }
            guard let newPassword = body.newPassword else { throw Abort(.badRequest, reason: "'newPassword' is required.") }
            let step = try await completion.begin(token: body.token, newPassword: newPassword, request)
            return try Self.answer(step, for: request)
        }
        guard let proof = try passkey.map({ try Self.passkeyProof($0, besides: body) })
            ?? SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        else {
            throw Abort(.badRequest, reason: "Give 'code' (from the authenticator app), 'recoveryCode' or 'passkey' with the 'mfaToken'.")
        }
        try await completion.complete(token: body.token, newPassword: body.newPassword, mfaToken: mfaToken, proof: proof, request)
        return Response(status: .noContent)
    }

    /// `POST /api/users/password-reset/passkey/options {"token","mfaToken"}`: the options of the
    /// account's passkeys for the second step the mfaToken belongs to (none for another's).
    func passkeyOptionsForSecondStep(_ request: Request) async throws -> Response {
        let body = try request.content.decode(SecondStepReference.self)
        let user = try await completion.secondStep(token: body.token, mfaToken: body.mfaToken, request)
        return try await passkeyOptions.secondFactorOptions(
            for: user.id, mfaDigest: SHA256.hex(of: body.mfaToken), from: request.clientAddress
        ).encodeResponse(for: request).notStored()
    }

    /// The body of the passkey options: the reset and its second step.
    struct SecondStepReference: Decodable, Sendable {
        let token: String
        let mfaToken: String
    }

    /// `passkey` as the proof, when it is the body's only one.
    private static func passkeyProof(_ passkey: AuthenticationResponse, besides body: PasswordResetConfirmation) throws -> SecondFactorProof {
        guard body.code == nil, body.recoveryCode == nil else {
            throw Abort(.badRequest, reason: "Give one of 'code', 'recoveryCode' and 'passkey', not several.")
        }
        return .passkey(passkey)
    }

    /// The 202's body: the same words for every login.
    static func accepted(lifetime: String) -> PasswordResetAccepted {
        PasswordResetAccepted(
            message: "If the account has a verified email address, a link to reset its password is on its way. It works once, for \(lifetime).")
    }

    private static func answer(_ step: PasswordResetCompletion.Step, for request: Request) throws -> Response {
        guard case .secondFactorRequired(let mfaToken, let methods) = step else { return Response(status: .noContent) }
        let body = MFARequired(
            reason: "A second factor is required to reset this account's password.", mfaToken: mfaToken, methods: methods.map(\.rawValue))
        return try ContentResponse(body, status: .unauthorized).encodeResponse(for: request).notStored()
    }
}
