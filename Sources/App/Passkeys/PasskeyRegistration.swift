import Foundation
import TILWire
import Web
import WebAuthn

/// The end of a passkey registration (the API's and the account page's): the challenge the
/// response answers is spent, must be a registration challenge issued to this user, and the
/// response must pass WebAuthn §7.1 (`Registration.verify`); then the credential is stored.
struct PasskeyRegistration: Sendable {
    let credentials: PasskeyCredentials
    let challenges: WebAuthnChallenges
    let relyingParty: ServedRelyingParty

    /// `POST /api/users/me/passkeys`'s body: the name and `RegistrationResponseJSON`.
    struct Body: Decodable, Sendable {
        let name: String
        let credential: RegistrationResponse
    }

    /// The stored passkey; 400 for a response that does not verify (with the rule it broke),
    /// 409 for a credential already stored or a user at the limit.
    func register(_ body: Body, for user: User) async throws -> PasskeySummary {
        let name = try PasskeyName.validated(body.name)
        let response = body.credential
        let challenge = response.clientData.challenge
        guard let issued = try await challenges.consume(challenge, for: .registration), issued.userID == user.id else {
            throw Abort(.badRequest, reason: "The registration challenge is unknown, expired or already used: ask for new options.")
        }
        let credential: RegisteredCredential
        do {
            credential = try Registration.verify(response, challenge: challenge, relyingParty: relyingParty.verifying)
        } catch {
            throw Abort(.badRequest, reason: "The passkey was not registered: \(error.reason).")
        }
        guard let stored = try await credentials.insert(credential, for: user.id, name: name) else {
            throw PasskeysController.tooMany
        }
        return stored
    }
}

extension ServedRelyingParty {
    /// The relying party as the WebAuthn library verifies against it.
    var verifying: RelyingParty {
        let party = current
        return RelyingParty(id: party.id, origins: party.origins)
    }
}
