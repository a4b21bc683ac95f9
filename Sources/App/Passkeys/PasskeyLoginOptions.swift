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
    let relyingParty: ServedRelyingParty
    /// Longer names match no account, and are refused as the login form refuses them.
    static let maxUsernameBytes = 1024

    /// What `POST …/passkey/options` may carry.
    struct Body: Decodable, Sendable {
        let username: String?
    }

    /// The options for `body` (nil: an empty request).
    func options(for body: Body?) async throws -> RequestOptions {
        let challenge = WebAuthnChallenges.Fresh()
        let username = body?.username ?? ""
        guard username.utf8.count <= Self.maxUsernameBytes else {
            throw Abort(.badRequest, reason: "'username' must be at most \(Self.maxUsernameBytes) bytes.")
        }
        var allowed: [CredentialDescriptor] = []
        if username.isEmpty {
            try await challenges.store(challenge, .authentication)
        } else {
            let found = try await passkeys.loginChallenge(challenge, username: username)
            allowed = found.credentials.isEmpty ? decoys.descriptors(for: found.folded) : found.credentials
        }
        return RequestOptions(challenge: challenge.encoded, rpId: relyingParty.current.id, allowCredentials: allowed)
    }

    /// The request's body, if it sent one: an empty body asks for discoverable credentials.
    static func body(of request: Request) throws -> Body? {
        request.body.isEmpty ? nil : try request.content.decode(Body.self)
    }
}
