import Crypt
import Foundation

/// The JSON forms a browser's `PublicKeyCredential.toJSON()` gives (WebAuthn L3 §5.1), every
/// byte string unpadded base64url.
enum ResponseJSON {
    static func registration(rawID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String]) throws -> Data {
        try encode(Credential(
            id: Base64URL.encode(rawID), rawId: Base64URL.encode(rawID),
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON), attestationObject: Base64URL.encode(attestationObject),
                transports: transports)))
    }

    static func authentication(rawID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?)
        throws -> Data
    {
        try encode(Credential(
            id: Base64URL.encode(rawID), rawId: Base64URL.encode(rawID),
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON), authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map(Base64URL.encode))))
    }

    /// A JSON string literal of `text`.
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    private static func encode(_ credential: Credential) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(credential)
    }

    private struct Credential: Encodable {
        let id: String
        let rawId: String
        let response: Response
        var type = "public-key"
        var authenticatorAttachment = "platform"
        var clientExtensionResults: [String: String] = [:]
    }

    private struct Response: Encodable {
        let clientDataJSON: String
        var attestationObject: String?
        var transports: [String]?
        var authenticatorData: String?
        var signature: String?
        var userHandle: String?
    }
}
