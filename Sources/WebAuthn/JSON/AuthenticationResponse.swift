public import FoundationEssentials

/// `AuthenticationResponseJSON` (WebAuthn L3 §5.1, `PublicKeyCredential.toJSON()` after
/// `get()`): the credential id (which the server looks up), clientDataJSON (parsed, for its
/// challenge), authenticator data, the signature and the user handle of a discoverable
/// credential. Only decoded and size-checked here; `Assertion.verify` checks what it says.
public struct AuthenticationResponse: Decodable, Sendable {
    public let rawID: [UInt8]
    public let clientDataJSON: [UInt8]
    public let clientData: CollectedClientData
    public let authenticatorData: [UInt8]
    public let signature: [UInt8]
    /// nil when absent, null or empty (a non-discoverable credential returns none).
    public let userHandle: [UInt8]?
    public let authenticatorAttachment: String?

    private enum ResponseKeys: String, CodingKey {
        case clientDataJSON, authenticatorData, signature, userHandle
    }

    public init(from decoder: any Decoder) throws {
        let envelope = try CredentialEnvelope(from: decoder, clientDataKey: ResponseKeys.clientDataJSON)
        (rawID, authenticatorAttachment) = (envelope.rawID, envelope.authenticatorAttachment)
        (clientDataJSON, clientData) = (envelope.clientDataJSON, envelope.clientData)
        let response = envelope.response
        authenticatorData = try response.base64URL(.authenticatorData, limit: WebAuthnLimits.authenticatorData)
        signature = try response.base64URL(.signature, limit: WebAuthnLimits.signature)
        let present = try response.contains(.userHandle) && !response.decodeNil(forKey: .userHandle)
        let handle = present ? try response.base64URL(.userHandle, limit: WebAuthnLimits.userHandle) : nil
        userHandle = handle?.isEmpty == false ? handle : nil
    }

    /// The response in `json`; anything but the JSON form is `.malformed`.
    public init(json: some DataProtocol) throws(WebAuthnError) {
        self = try Self.decodeWebAuthnJSON(json)
    }
}
