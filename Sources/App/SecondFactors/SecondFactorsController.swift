import Foundation
import OneTimePasswords
import Postgres
import QRCode
import Web

/// `/api/users/me/mfa`: the caller's second factors, with a token holding `account`. TOTP is
/// enrolled in two steps (a secret, then a code from the app proving it has it, which turns it
/// on and answers the recovery codes once); turning it off and renewing the recovery codes
/// need the current password and a code or a recovery code.
struct SecondFactorsController: RouteCollection {
    let secondFactors: SecondFactors
    let currentPassword: CurrentPassword
    let auth: BearerAuth
    let audit: AuditLog

    static let proofMissing = Abort(.forbidden, reason: "TOTP is on: give 'code' (from the authenticator app) or 'recoveryCode' as well.")
    static let totpOff = Abort(.conflict, reason: "TOTP is not on for this account.")
    /// The QR code's displayed size in pixels per module: an otpauth URI is a version 6–8 symbol.
    static let qrPixelsPerModule = 4

    func boot(routes: any RoutesBuilder) throws {
        let mfa = auth.guarded(routes.grouped("api", "users", "me", "mfa"), needing: .account)
        mfa.get(use: status)
        mfa.post("totp", use: startEnrolment)
        mfa.post("totp", "confirm", use: confirm)
        mfa.delete("totp", use: disable)
        mfa.post("recovery-codes", use: regenerate)
    }

    func status(_ request: Request) async throws -> MFAStatus {
        let user = try request.auth.require(BearerIdentity.self).user
        return MFAStatus(
            totp: try await secondFactors.isRequired(for: user.id),
            recoveryCodesRemaining: try await secondFactors.recoveryCodes.remaining(of: user.id), passkeys: 0)
    }

    /// A new secret, pending until confirmed (replacing an older pending one); 409 while TOTP is on.
    func startEnrolment(_ request: Request) async throws -> Response {
        let user = try request.auth.require(BearerIdentity.self).user
        let secret = TOTPSecret.generate()
        guard try await secondFactors.totp.startEnrolment(of: user.id, secret: secret) else {
            throw Abort(.conflict, reason: "TOTP is already on; turn it off first to enrol another app.")
        }
        let uri = OTPAuthURI.totp(username: user.username, secret: secret)
        let svg = try QRCode(encoding: uri).svg(pixelsPerModule: Self.qrPixelsPerModule)
        let enrolment = TOTPEnrolment(secret: Base32.encode(secret), otpauthURI: uri, qrCodeSVG: svg)
        return try ContentResponse(enrolment, status: .created).encodeResponse(for: request).notStored()
    }

    /// Turns TOTP on once a code of the pending secret checks out; the recovery codes, once.
    func confirm(_ request: Request) async throws -> Response {
        let identity = try request.auth.require(BearerIdentity.self)
        let code = try SecondFactorInput.code(try request.content.decode(TOTPConfirmation.self).code)
        let factors = secondFactors
        guard let pending = try await factors.totp.credential(of: identity.user.id), !pending.confirmed else {
            throw Abort(.conflict, reason: "No TOTP enrolment is pending: start one with POST /api/users/me/mfa/totp.")
        }
        guard let step = TOTP(secret: pending.secret).verify(code, at: factors.clock.now, after: nil) else {
            audit.record(.secondFactorFailed, request, userID: identity.user.id, sessionID: identity.sessionID)
            throw Abort(.forbidden, reason: "The code does not match the new secret: check the app's clock and try the next code.")
        }
        let codes = try await factors.db.withTransaction { tx -> [String]? in
            guard try await factors.totp.confirm(identity.user.id, sealed: pending.sealed, step: step, on: tx) else { return nil }
            return try await factors.recoveryCodes.replace(for: identity.user.id, on: tx)
        }
        guard let codes else { throw Abort(.conflict, reason: "The enrolment changed meanwhile: start again.") }
        audit.record(.totpEnabled, request, userID: identity.user.id, sessionID: identity.sessionID)
        return try ContentResponse(RecoveryCodes(recoveryCodes: codes), status: .ok).encodeResponse(for: request).notStored()
    }

    /// Turns TOTP off and drops the recovery codes. With TOTP on, needs the current password
    /// and a code or recovery code; a pending enrolment alone goes with the password.
    func disable(_ request: Request) async throws -> HTTPStatus {
        let identity = try await proven(request)
        let factors = secondFactors
        try await factors.db.withTransaction { tx in _ = try await factors.totp.removeAll(of: identity.user.id, on: tx) }
        audit.record(.totpDisabled, request, userID: identity.user.id, sessionID: identity.sessionID)
        return .noContent
    }

    /// A new set of ten recovery codes in place of the old (used or not); needs TOTP on and the proof.
    func regenerate(_ request: Request) async throws -> Response {
        let identity = try await proven(request, needingTOTP: true)
        let factors = secondFactors
        let codes = try await factors.db.withTransaction { tx in try await factors.recoveryCodes.replace(for: identity.user.id, on: tx) }
        audit.record(.recoveryCodesRegenerated, request, userID: identity.user.id, sessionID: identity.sessionID)
        return try ContentResponse(RecoveryCodes(recoveryCodes: codes), status: .ok).encodeResponse(for: request).notStored()
    }

    /// The caller, once the request's `SecondFactorProofRequest` holds: the current password,
    /// then (with TOTP on) a code or a recovery code. 409 when `needingTOTP` and TOTP is off.
    private func proven(_ request: Request, needingTOTP: Bool = false) async throws -> BearerIdentity {
        let identity = try request.auth.require(BearerIdentity.self)
        let body = try request.content.decode(SecondFactorProofRequest.self)
        let proof = try SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        let on = try await secondFactors.isRequired(for: identity.user.id)
        if needingTOTP, !on { throw Self.totpOff }
        try await currentPassword.require(
            body.currentPassword, of: identity, request, failed: .mfaChangeFailed, throttled: .secondFactorThrottled)
        if on {
            guard let proof else { throw Self.proofMissing }
            try await secondFactors.verify(proof, of: identity.user, request)
        }
        return identity
    }
}
