import FoundationEssentials

/// The client data the browser signed over (WebAuthn L3 §5.8.1), parsed from clientDataJSON.
/// Members TIL does not check (`tokenBinding`, unknown ones) are ignored, as §5.8.1 asks;
/// `topOrigin` is read only to be ignored, since a cross-origin ceremony is refused anyway.
public struct CollectedClientData: Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge's bytes (decoded from base64url).
    public let challenge: [UInt8]
    public let origin: String
    /// True, false, or absent (nil), which counts as false.
    public let crossOrigin: Bool?
    public let topOrigin: String?

    public init(json: [UInt8]) throws(WebAuthnError) {
        guard json.count <= WebAuthnLimits.clientDataJSON else { throw .malformed("clientDataJSON is too long") }
        let members: Members
        do { members = try JSONDecoder().decode(Members.self, from: Data(json)) } catch {
            throw .malformed("clientDataJSON is not a JSON object with type, challenge and origin")
        }
        guard !JSONMemberNames.repeatTopLevelName(json) else { throw .malformed("clientDataJSON repeats a member") }
        guard let challenge = WebAuthnBase64URL.decode(members.challenge, limit: 1024) else {
            throw .malformed("clientDataJSON's challenge is not base64url")
        }
        type = members.type
        self.challenge = challenge
        origin = members.origin
        crossOrigin = members.crossOrigin
        topOrigin = members.topOrigin
    }

    private struct Members: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }
}
