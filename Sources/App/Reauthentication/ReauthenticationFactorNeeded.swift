import TILWire
import Web

/// The 403 of a right password without the second factor the account has on: the body says
/// so (`mfaRequired`, `methods`), and the client sends the password again with one.
struct ReauthenticationFactorNeeded: EncodableAbortError, Sendable {
    let methods: [SecondFactorMethod]

    var status: HTTPStatus { .forbidden }
    var reason: String { "Two-step sign-in is on: send the password again with 'code' (from the authenticator app), 'recoveryCode' or 'passkey'." }

    func encode(to encoder: any Encoder) throws {
        try ReauthenticationFactorRequired(reason: reason, methods: methods.map(\.rawValue)).encode(to: encoder)
    }
}
