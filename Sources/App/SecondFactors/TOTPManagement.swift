import Foundation
import Postgres
import OneTimePasswords
import QRCode
import Web

/// Turning TOTP on and off and renewing recovery codes: the steps `/api/users/me/mfa…` and the
/// account page's forms share, checked and audited the same way whichever of them asked.
/// `sessionID` is the caller's session (a bearer token's, or the browser's), for the audit.
struct TOTPManagement: Sendable {
    let secondFactors: SecondFactors
    /// The current password and a code, for turning TOTP off and new recovery codes.
    let proofs: AccountChangeProof
    let audit: AuditLog

    /// The QR code's displayed size in pixels per module: an otpauth URI is a version 6–8 symbol.
    static let qrPixelsPerModule = 4
    static let alreadyOn = Abort(.conflict, reason: "TOTP is already on; turn it off first to enrol another app.")
    static let nothingPending = Abort(.conflict, reason: "No TOTP enrolment is pending: start one with POST /api/users/me/mfa/totp.")
    static let wrongFirstCode = Abort(
        .forbidden, reason: "The code does not match the new secret: check the app's clock and try the next code.")
    static let changedMeanwhile = Abort(.conflict, reason: "The enrolment changed meanwhile: start again.")
    static let proofMissing = AccountChangeProof.factorMissing
    static let totpOff = Abort(.conflict, reason: "TOTP is not on for this account.")

    /// A new secret for `user`, pending until confirmed (replacing an older pending one);
    /// `alreadyOn` (409) while TOTP is on.
    func start(for user: User) async throws -> TOTPEnrolment {
        let secret = TOTPSecret.generate()
        guard try await secondFactors.totp.startEnrolment(of: user.id, secret: secret) else { throw Self.alreadyOn }
        return try Self.enrolment(secret, of: user)
    }

    /// The pending enrolment of `user` shown again (the page after a wrong first code); nil
    /// when there is none.
    func pending(for user: User) async throws -> TOTPEnrolment? {
        guard let pending = try await secondFactors.totp.credential(of: user.id), !pending.confirmed else { return nil }
        return try Self.enrolment(pending.secret, of: user)
    }

    /// Turns TOTP on once `code` (normalised) of the pending secret checks out: the recovery
    /// codes, once. Throws `nothingPending`, `wrongFirstCode` (audited) or `changedMeanwhile`
    /// (another confirmation won).
    func confirm(_ code: String, for user: User, sessionID: UUID?, _ request: Request) async throws -> [String] {
        let factors = secondFactors
        guard let pending = try await factors.totp.credential(of: user.id), !pending.confirmed else { throw Self.nothingPending }
        guard let step = TOTP(secret: pending.secret).verify(code, at: factors.clock.now, after: nil) else {
            audit.record(.secondFactorFailed, request, userID: user.id, sessionID: sessionID)
            throw Self.wrongFirstCode
        }
        let codes = try await factors.db.withTransaction { tx -> [String]? in
            guard try await factors.totp.confirm(user.id, sealed: pending.sealed, step: step, on: tx) else { return nil }
            try await AccountChangeMail.totpEnabled.queue(for: user.id, on: tx)
            return try await factors.recoveryCodes.replace(for: user.id, on: tx)
        }
        guard let codes else { throw Self.changedMeanwhile }
        audit.record(.totpEnabled, request, userID: user.id, sessionID: sessionID)
        return codes
    }

    /// Turns TOTP off and drops the recovery codes (call `prove` first); the owner's notice is
    /// queued with it when TOTP was on (a pending setup alone changes no way in).
    func turnOff(for user: User, sessionID: UUID?, _ request: Request) async throws {
        let factors = secondFactors
        try await factors.db.withTransaction { tx in
            let on = try await tx.query("SELECT \(TOTPCredentialRepository.isOn(for: user.id)) AS on").first
            let wasOn = try on?.decode(column: "on", as: Bool.self) ?? false
            _ = try await factors.totp.removeAll(of: user.id, on: tx)
            if wasOn { try await AccountChangeMail.totpDisabled.queue(for: user.id, on: tx) }  // a pending setup alone: no notice
        }
        audit.record(.totpDisabled, request, userID: user.id, sessionID: sessionID)
    }

    /// A new set of recovery codes in place of the old, used or not (call `prove` first).
    func renewRecoveryCodes(for user: User, sessionID: UUID?, _ request: Request) async throws -> [String] {
        let factors = secondFactors
        let codes = try await factors.db.withTransaction { tx in
            try await AccountChangeMail.recoveryCodesRenewed.queue(for: user.id, on: tx)
            return try await factors.recoveryCodes.replace(for: user.id, on: tx)
        }
        audit.record(.recoveryCodesRegenerated, request, userID: user.id, sessionID: sessionID)
        return codes
    }

    /// The proof a change of second factors needs: the current password, then (with TOTP on) a
    /// code or a recovery code (`AccountChangeProof`, which records it as the session's
    /// re-authentication). `totpOff` (409) when `needingTOTP` and TOTP is off; 403 for a wrong
    /// password or code; the throttle's 429.
    func prove(
        password: String, _ proof: SecondFactorProof?, of user: User, sessionID: UUID?, needingTOTP: Bool = false,
        _ request: Request
    ) async throws {
        let on = try await secondFactors.isRequired(for: user.id)
        if needingTOTP, !on { throw Self.totpOff }
        try await proofs.require(
            password: password, proof, of: user, sessionID: sessionID, totpOn: on, request, failed: .mfaChangeFailed,
            throttled: .secondFactorThrottled)
    }

    private static func enrolment(_ secret: [UInt8], of user: User) throws -> TOTPEnrolment {
        let uri = OTPAuthURI.totp(username: user.username, secret: secret)
        let svg = try QRCode(encoding: uri).svg(pixelsPerModule: qrPixelsPerModule)
        return TOTPEnrolment(secret: Base32.encode(secret), otpauthURI: uri, qrCodeSVG: svg)
    }
}
