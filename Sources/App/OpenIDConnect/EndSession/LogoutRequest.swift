import Foundation
import Web

/// An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2), checked: the
/// `id_token_hint` signed by TIL's keys with TIL as its `iss` (an expired one still names the
/// sign-in, §4), the client (the hint's `aud`, or `client_id`, which must agree), and the
/// `post_logout_redirect_uri`, exactly one the client registered. Anything wrong is a 400 page
/// of TIL's: a logout never redirects to a URI it has not proven the client's (§3).
struct LogoutRequest: Sendable {
    /// The hint's user (lowercase UUID), when a valid hint was sent.
    let hintSubject: String?
    let client: OAuthClient?
    let postLogoutRedirectURI: String?
    let state: String?

    static let maxHintBytes = 8192

    init(_ fields: FormFields, keys: SigningKeyRing, clients: ClientRepository, issuer: Issuer) async throws {
        let hint = try await Self.hint(try fields.single("id_token_hint", maxBytes: Self.maxHintBytes), keys: keys, issuer: issuer)
        let clientID = try fields.single("client_id", maxBytes: 128)
        if let hint, let clientID, hint.aud != clientID {
            throw Self.refusal("client_id is not the application the id_token_hint was issued to.")
        }
        state = try fields.single("state", maxBytes: AuthorizationRequest.maxStateBytes)
        hintSubject = hint?.sub
        let named = hint?.aud ?? clientID
        if let named {
            guard let found = try await clients.find(id: named) else { throw Self.refusal("No application is registered as this client_id.") }
            client = found
        } else {
            client = nil
        }
        postLogoutRedirectURI = try fields.single("post_logout_redirect_uri", maxBytes: AuthorizationClient.maxRedirectURIBytes)
        if let uri = postLogoutRedirectURI {
            guard let client else { throw Self.refusal("post_logout_redirect_uri needs the application: send client_id or id_token_hint.") }
            guard client.postLogoutRedirectURIs.contains(uri) else {
                throw Self.refusal("This post_logout_redirect_uri is not registered for the application.")
            }
        }
    }

    /// Where the browser goes once signed out: the registered URI with `state`; nil: TIL's page.
    var redirect: String? {
        postLogoutRedirectURI.map { uri in QueryEncoding.appending(state.map { [(name: "state", value: $0)] } ?? [], to: uri) }
    }

    /// The claims a hint must prove: TIL issued it, to `aud`, for `sub`.
    private struct Hint: Decodable {
        let iss: String
        let sub: String
        let aud: String
    }

    private static func hint(_ compact: String?, keys: SigningKeyRing, issuer: Issuer) async throws -> Hint? {
        guard let compact else { return nil }
        guard let payload = try? await keys.verify(compact), let hint = try? JSONDecoder().decode(Hint.self, from: payload),
            hint.iss == issuer.url
        else { throw refusal("The id_token_hint is not an ID token TIL issued.") }
        return hint
    }

    private static func refusal(_ reason: String) -> Abort {
        Abort(.badRequest, reason: "The application's sign-out request is invalid: \(reason) You were not sent back to it.")
    }
}
