import Foundation
import Web
import WebAuthn

/// The end of a passkey login (the API's, the login page's, and a second factor's): which
/// user an `AuthenticationResponseJSON` proves.
///
/// The challenge is spent first (single-use, whatever follows). The credential is found by
/// `rawId`; then the attempt is admitted by the login throttle — under the owner's username
/// when the credential is known, else under a key of the client address no username can
/// spell — so unknown credentials and bad signatures count as failed logins do, per address
/// and per account, and past the limit the answer is 429. The response must pass WebAuthn §7.2
/// (`Assertion.verify`), name the owner as user handle, and be recorded while the stored
/// counter is still the one it was verified against.
struct PasskeyAuthentication: Sendable {
    let credentials: PasskeyCredentials
    let challenges: WebAuthnChallenges
    let relyingParty: ServedRelyingParty
    let throttle: LoginThrottle
    let audit: AuditLog

    /// What the challenge must have been issued for: a login (by no one, or by the named
    /// user), or the second factor of the mfaToken with this digest.
    enum Ceremony: Sendable, Equatable {
        case login
        case secondFactor(mfaDigest: String)
    }

    /// The user `response` proves. Throws a 401 naming the refusal, or the throttle's 429.
    func authenticate(_ response: AuthenticationResponse, for ceremony: Ceremony, _ request: Request) async throws -> User {
        let challenge = response.clientData.challenge
        guard let issued = try await challenges.consume(challenge, for: .authentication),
              issued.mfaDigest == ceremony.mfaDigest
        else { throw Self.refusal("the challenge is unknown, expired or already used: ask for new options") }
        let found = try await credentials.find(response.rawID)
        let attempt = try await throttle.begin(
            username: found?.owner.username ?? Self.unknownCredentialKey(request.clientAddress), address: request.clientAddress)
        guard attempt.id != nil else {
            audit.record(.loginThrottled, request, userID: found?.owner.id, username: attempt.key)
            throw LoginThrottle.refusal(retryAfter: attempt.retryAfter ?? 1)
        }
        func failed(_ reason: String, event: AuditLog.Event = .loginFailed) -> Abort {
            audit.record(event, request, userID: found?.owner.id, username: attempt.key)
            return Self.refusal(reason)
        }
        guard let found else { throw failed("no passkey with this credential id is registered") }
        guard !issued.named && issued.userID == nil || issued.userID == found.owner.id else {
            throw failed("the passkey is not the named user's")
        }
        guard let handle = response.userHandle ?? (issued.userID == nil ? nil : found.owner.id.handleBytes),
              handle == found.owner.id.handleBytes
        else { throw failed("the user handle is not the passkey owner's") }
        let verified: VerifiedAssertion
        do {
            verified = try Assertion.verify(response, challenge: challenge, relyingParty: relyingParty.verifying, credential: found.stored)
        } catch .signCountNotIncreasing {
            throw failed(WebAuthnError.signCountNotIncreasing.reason, event: .passkeyCloneSuspected)
        } catch {
            throw failed(error.reason)
        }
        guard try await credentials.record(verified, of: found) else {
            throw failed("another login with this passkey was recorded first")
        }
        if verified.gainedBackupEligibility { audit.record(.passkeyBackupEligibilityGained, request, userID: found.owner.id) }
        try await throttle.succeeded(attempt, user: found.owner)
        return found.owner
    }

    /// The throttle's key for an unknown credential from `address`: `:` keeps it from ever
    /// being a username (`UsernameRules`), so it counts against the address alone.
    static func unknownCredentialKey(_ address: String) -> String {
        "passkey:" + address
    }

    /// 401 with what was wrong.
    static func refusal(_ reason: String) -> Abort {
        Abort(.unauthorized, reason: "The passkey was not accepted: \(reason).")
    }
}

extension PasskeyAuthentication.Ceremony {
    var mfaDigest: String? {
        switch self {
        case .login: nil
        case .secondFactor(let digest): digest
        }
    }
}
