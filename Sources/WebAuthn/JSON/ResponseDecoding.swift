import FoundationEssentials

/// The members every PublicKeyCredential JSON form shares (WebAuthn L3 §5.1): `id` (the
/// base64url of `rawId`), `rawId`, `type: "public-key"`, `authenticatorAttachment`, and in
/// `response` the clientDataJSON (parsed). Failures are `DecodingError`s naming the member, so
/// a server's JSON error handling turns them into a 400.
struct CredentialEnvelope<ResponseKeys: CodingKey> {
    let rawID: [UInt8]
    let authenticatorAttachment: String?
    let clientDataJSON: [UInt8]
    let clientData: CollectedClientData
    /// The `response` member, for the members each form adds.
    let response: KeyedDecodingContainer<ResponseKeys>

    private enum Keys: String, CodingKey {
        case id, rawId, type, response, authenticatorAttachment
    }

    init(from decoder: any Decoder, clientDataKey: ResponseKeys) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        guard try container.decode(String.self, forKey: .type) == "public-key" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "type must be public-key")
        }
        rawID = try container.base64URL(.rawId, limit: WebAuthnLimits.credentialID)
        guard try container.base64URL(.id, limit: WebAuthnLimits.credentialID) == rawID else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "id is not the base64url of rawId")
        }
        authenticatorAttachment = try container.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
        guard (authenticatorAttachment?.utf8.count ?? 0) <= WebAuthnLimits.authenticatorAttachment else {
            throw DecodingError.dataCorruptedError(
                forKey: .authenticatorAttachment, in: container, debugDescription: "authenticatorAttachment is too long")
        }
        response = try container.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        (clientDataJSON, clientData) = try response.clientData(clientDataKey)
    }
}

extension KeyedDecodingContainer {
    /// The bytes of a base64url member, at most `limit` of them.
    func base64URL(_ key: Key, limit: Int) throws -> [UInt8] {
        guard let bytes = WebAuthnBase64URL.decode(try decode(String.self, forKey: key), limit: limit) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not base64url of at most \(limit) bytes")
        }
        return bytes
    }

    /// clientDataJSON's bytes and their parse.
    func clientData(_ key: Key) throws -> ([UInt8], CollectedClientData) {
        let json = try base64URL(key, limit: WebAuthnLimits.clientDataJSON)
        do {
            return (json, try CollectedClientData(json: json))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.reason)
        }
    }
}

extension Decodable {
    /// Decodes a response from its JSON bytes, any failure a `WebAuthnError.malformed`.
    static func decodeWebAuthnJSON(_ json: some DataProtocol) throws(WebAuthnError) -> Self {
        do {
            return try JSONDecoder().decode(Self.self, from: Data(json))
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformed(context.debugDescription)
        } catch {
            throw .malformed("not the WebAuthn JSON form: \(error)")
        }
    }
}
