public import FoundationEssentials

/// `RegistrationResponseJSON` (WebAuthn L3 §5.1, `PublicKeyCredential.toJSON()` after
/// `create()`): the credential id, clientDataJSON (parsed here, so a server can find its
/// challenge before verifying), the attestation object and the transport hints. Only
/// decoded and size-checked here; `Registration.verify` checks what it says.
public struct RegistrationResponse: Decodable, Sendable {
    public let rawID: [UInt8]
    public let clientDataJSON: [UInt8]
    public let clientData: CollectedClientData
    public let attestationObject: [UInt8]
    public let transports: [String]
    public let authenticatorAttachment: String?

    private enum ResponseKeys: String, CodingKey {
        case clientDataJSON, attestationObject, transports
    }

    public init(from decoder: any Decoder) throws {
        let envelope = try CredentialEnvelope(from: decoder, clientDataKey: ResponseKeys.clientDataJSON)
        (rawID, authenticatorAttachment) = (envelope.rawID, envelope.authenticatorAttachment)
        (clientDataJSON, clientData) = (envelope.clientDataJSON, envelope.clientData)
        let response = envelope.response
        attestationObject = try response.base64URL(.attestationObject, limit: WebAuthnLimits.attestationObject)
        let transports = try response.decodeIfPresent([String].self, forKey: .transports) ?? []
        guard transports.count <= WebAuthnLimits.transports, transports.allSatisfy({ $0.utf8.count <= WebAuthnLimits.transportLength })
        else {
            throw DecodingError.dataCorruptedError(forKey: .transports, in: response, debugDescription: "too many or too long transports")
        }
        self.transports = transports
    }

    /// The response in `json`; anything but the JSON form is `.malformed`.
    public init(json: some DataProtocol) throws(WebAuthnError) {
        self = try Self.decodeWebAuthnJSON(json)
    }
}
