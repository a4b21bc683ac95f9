import Foundation

extension APIClient {
    /// The caller's second factors: TOTP and its recovery codes.
    public var mfa: MFAAPI { MFAAPI(client: self) }
}

/// `/api/users/me/mfa...`; everything here needs a token with the `account` scope. TOTP is
/// turned on in two calls — `startTOTP` (a secret for the authenticator app), then
/// `confirmTOTP` with a code the app shows — so a secret nobody scanned never locks anyone out.
public struct MFAAPI: Sendable {
    let client: APIClient

    /// `GET /api/users/me/mfa`: what second factors the account has; never a secret.
    public func status() async throws -> MFAStatus {
        try await client.send(APIRequest("GET", "/api/users/me/mfa", authorization: .bearer(.account)), as: MFAStatus.self)
    }

    /// `POST /api/users/me/mfa/totp`: a new secret, pending until confirmed (it replaces an
    /// older pending one); 409 while TOTP is on. Shown once: the server answers it `no-store`.
    public func startTOTP() async throws -> TOTPEnrolment {
        try await client.send(APIRequest("POST", "/api/users/me/mfa/totp", authorization: .bearer(.account)), as: TOTPEnrolment.self)
    }

    /// `POST /api/users/me/mfa/totp/confirm`: turns TOTP on once `code` matches the pending
    /// secret; the ten recovery codes, which are never shown again.
    public func confirmTOTP(code: String) async throws -> [String] {
        let request = try APIRequest("POST", "/api/users/me/mfa/totp/confirm", json: TOTPConfirmation(code: code), authorization: .bearer(.account))
        return try await client.send(request, as: RecoveryCodes.self).recoveryCodes
    }

    /// `DELETE /api/users/me/mfa/totp`: turns TOTP off and drops the recovery codes. With TOTP
    /// on, `proof` is required; a pending enrolment alone goes with the password.
    public func disableTOTP(currentPassword: String, proof: SecondFactorCode?) async throws {
        let body = SecondFactorProofRequest(currentPassword: currentPassword, code: proof?.code, recoveryCode: proof?.recoveryCode)
        try await client.send(try APIRequest("DELETE", "/api/users/me/mfa/totp", json: body, authorization: .bearer(.account)))
    }

    /// `POST /api/users/me/mfa/recovery-codes`: ten new recovery codes in place of the whole
    /// old set, used or not; needs TOTP on.
    public func regenerateRecoveryCodes(currentPassword: String, proof: SecondFactorCode) async throws -> [String] {
        let body = SecondFactorProofRequest(currentPassword: currentPassword, code: proof.code, recoveryCode: proof.recoveryCode)
        let request = try APIRequest("POST", "/api/users/me/mfa/recovery-codes", json: body, authorization: .bearer(.account))
        return try await client.send(request, as: RecoveryCodes.self).recoveryCodes
    }
}
