import Crypt
import Foundation
import Web

/// The options of a passkey login (`navigator.credentials.get`), for the API and the login
/// page alike. They never tell whether a username exists: without one the allow list is empty
/// (the browser offers its discoverable passkeys); for a user with passkeys it lists them;
/// for any other name it lists `DecoyCredentials`, after the same single statement.
struct PasskeyLoginOptions: Sendable {
    let passkeys: PasskeyRepository
    let challenges: WebAuthnChallenges
    let decoys: DecoyCredentials
    /// The mfaTokens of logins waiting for their second factor.
    let mfaChallenges: MFAChallengeRepository
    let relyingParty: ServedRelyingParty
    /// Longer names match no account, and are refused as the login form refuses them.
    static let maxUsernameBytes = 1024

    /// What `POST …/passkey/options` may carry.
    struct Body: Decodable, Sendable {
        let username: String?
        /// A password login's mfaToken: the options of its second factor, that user's passkeys.
        let mfaToken: String?
    }

    /// The options for `body` (nil: an empty request), asked for from `address`.
    func options(for body: Body?, from address: String) async throws -> RequestOptions {
        try await challenges.checkRoom(for: address)
        var challenge = WebAuthnChallenges.Fresh()
        challenge.requestedFrom = address
        let username = body?.username ?? ""
        guard username.utf8.count <= Self.maxUsernameBytes else {
            throw Abort(.badRequest, reason: "'username' must be at most \(Self.maxUsernameBytes) bytes.")
        }
        var allowed: [CredentialDescriptor] = []
        if let mfaToken = body?.mfaToken {
            guard username.isEmpty else { throw Abort(.badRequest, reason: "Give 'username' or 'mfaToken', not both.") }
            guard let userID = try await mfaChallenges.user(of: mfaToken) else { throw SecondFactors.tokenGone }
            allowed = try await passkeys.secondFactorChallenge(challenge, for: userID, mfaDigest: SHA256.hex(of: mfaToken))
        } else if username.isEmpty {
            try await challenges.store(challenge, .authentication)
        } else {
            let found = try await passkeys.loginChallenge(challenge, username: username)
            allowed = found.credentials.isEmpty ? decoys.descriptors(for: found.folded) : found.credentials
        }
        return RequestOptions(challenge: challenge.encoded, rpId: relyingParty.current.id, allowCredentials: allowed)
    }

    /// The options of a second factor that `mfaDigest`'s mfaToken asks for outside a login (a
    /// password reset's second step): `userID`'s passkeys, the challenge tied to that digest.
    func secondFactorOptions(for userID: UUID, mfaDigest: String, from address: String) async throws -> RequestOptions {
        try await challenges.checkRoom(for: address)
        var challenge = WebAuthnChallenges.Fresh()
        challenge.requestedFrom = address
        let allowed = try await passkeys.secondFactorChallenge(challenge, for: userID, mfaDigest: mfaDigest)
        return RequestOptions(challenge: challenge.encoded, rpId: relyingParty.current.id, allowCredentials: allowed)
    }

    /// The request's body, if it sent one: an empty body asks for discoverable credentials.
    static func body(of request: Request) throws -> Body? {
        request.body.isEmpty ? nil : try request.content.decode(Body.self)
    }
}
