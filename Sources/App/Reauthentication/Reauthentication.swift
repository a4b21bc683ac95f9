import Foundation
import Web
import WebAuthn

/// `POST /api/users/me/reauth`'s work: the caller proves who they are again, exactly as strongly
/// as a login would — the password, then with TOTP on a code, a recovery code or a passkey;
/// or a passkey alone (a whole login, `hwk user`) — and the session's `auth_time` and `amr` are
/// renewed (`SessionRepository.renewAuthentication`). Every check goes through the login
/// throttle (per account and per address, 429 past it): the password and a code through
/// `AccountChangeProof`, a passkey through `PasskeyAuthentication`.
///
/// Only sessions that collected the password themselves may: a Basic login (`login`) and the
/// first-party CLI (`oauth` of `til-cli`). A third-party client must never see a user's password
/// (why OAuth 2.1 dropped the password grant): it steps up through the authorization endpoint
/// with `max_age` (RFC 9470 §4).
struct Reauthentication: Sendable {
    /// The password and a code, as an account change checks them (throttled, audited).
    let proofs: AccountChangeProof
    let audit: AuditLog

    var secondFactors: SecondFactors { proofs.secondFactors }

    /// What the caller offers.
    enum Proof: Sendable {
        /// The password, and a second factor when one was sent.
        case password(String, SecondFactorProof?)
        /// A passkey's assertion alone, over a login challenge (`/api/users/login/passkey/options`).
        case passkey(AuthenticationResponse)
    }

    /// Whether `identity`'s session may re-authenticate here.
    static func mayReauthenticate(_ identity: BearerIdentity) -> Bool {
        identity.kind == "login" || (identity.kind == "oauth" && identity.clientID == TILMigrations.tilCLIClientID)
    }

    static let thirdPartyClient = Abort(
        .forbidden,
        reason: "Only a password login or the til command-line tool may re-authenticate here: an OAuth client steps up through the authorization endpoint with max_age (RFC 9470 §4), never by collecting the password.")

    static let changedMeanwhile = Abort(
        .conflict, reason: "The account changed during the re-authentication (a new password, or a second factor removed): try again.")

    /// Checks `proof` for `identity` and renews its session's authentication; throws 403 for a
    /// wrong proof or a missing second factor (`ReauthenticationFactorNeeded`, before any
    /// password is checked), the throttle's 429, or 409 when the account changed meanwhile.
    func reauthenticate(_ identity: BearerIdentity, with proof: Proof, _ request: Request) async throws {
        guard Self.mayReauthenticate(identity) else { throw Self.thirdPartyClient }
        let user = identity.user
        let renewed: Bool
        switch proof {
        case .passkey(let response):
            try await requirePasskey(response, of: identity, request)
            renewed = try await proofs.sessions.renewAuthentication(of: identity.sessionID, user: user, amr: ["hwk", "user"])
        case .password(let password, let factor):
            let methods = try await secondFactors.methods(of: user.id)
            if !methods.isEmpty, factor == nil { throw ReauthenticationFactorNeeded(methods: methods) }
            if case .passkey(let response)? = factor {
                let proven = try await proofs.currentPassword.require(
                    password, of: identity, request, failed: .reauthFailed, throttled: .reauthThrottled)
                try await requirePasskey(response, of: identity, request)
                renewed = try await proofs.sessions.renewAuthentication(of: identity.sessionID, user: proven, amr: ["pwd", "hwk", "mfa"])
            } else {
                renewed = try await proofs.require(
                    password: password, factor, of: user, sessionID: identity.sessionID, totpOn: !methods.isEmpty, request,
                    failed: .reauthFailed, throttled: .reauthThrottled)
            }
        }
        guard renewed else { throw Self.changedMeanwhile }
        audit.record(.reauthSucceeded, request, userID: user.id, sessionID: identity.sessionID)
    }

    /// Returns once `response` proves a passkey of `identity`'s user; 403 otherwise (audited
    /// `reauth.failed`; `PasskeyAuthentication` has counted it as a failed login).
    private func requirePasskey(_ response: AuthenticationResponse, of identity: BearerIdentity, _ request: Request) async throws {
        guard let passkeys = secondFactors.passkeys else { throw Abort(.badRequest, reason: "Passkeys are not available here.") }
        let owner: User
        do {
            owner = try await passkeys.authenticate(response, for: .login, request)
        } catch let refusal as Abort where refusal.status == .unauthorized {
            audit.record(.reauthFailed, request, userID: identity.user.id, sessionID: identity.sessionID)
            throw Abort(.forbidden, reason: refusal.reason)
        }
        guard owner.id == identity.user.id else {
            audit.record(.reauthFailed, request, userID: identity.user.id, sessionID: identity.sessionID)
            throw Abort(.forbidden, reason: "The passkey was not accepted: it is another account's.")
        }
    }
}
