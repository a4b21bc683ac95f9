/// The relying party a running server answers as (`WebAuthnSettings`): settled by
/// `WEBAUTHN_RP_ID` and `WEBAUTHN_ORIGINS`, else read from the issuer at each ceremony, since
/// a derived issuer learns its port only once the server has bound it.
struct ServedRelyingParty: Sendable {
    let settings: WebAuthnSettings
    let issuer: ServedIssuer
    /// The `rp.name` the browser shows beside the passkey.
    static let name = "TIL"

    var current: PasskeyRelyingParty { settings.relyingParty(for: issuer.current) }
}
