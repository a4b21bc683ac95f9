import Foundation
import Web

/// A credential a ceremony names (`PublicKeyCredentialDescriptorJSON`): in a registration's
/// `excludeCredentials` (the user's passkeys, so an authenticator holding one says so instead
/// of making another) or a login's `allowCredentials`.
struct CredentialDescriptor: Content, Equatable {
    var type = "public-key"
    /// The credential id, base64url.
    let id: String
    let transports: [String]
}

/// `PublicKeyCredentialCreationOptionsJSON`, exactly as `PublicKeyCredential.parseCreationOptionsFromJSON`
/// reads it: every binary field base64url. Passkeys only: a discoverable credential
/// (`residentKey: required`) with user verification, and no attestation asked for.
struct CreationOptions: Content {
    struct RelyingParty: Codable, Sendable {
        let id: String
        let name: String
    }

    struct UserEntity: Codable, Sendable {
        /// The user handle: the user's UUID as 16 bytes, base64url. Stable, and no personal data.
        let id: String
        let name: String
        let displayName: String
    }

    struct Parameter: Codable, Sendable {
        var type = "public-key"
        let alg: Int
    }

    struct Selection: Codable, Sendable {
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "required"
    }

    let rp: RelyingParty
    let user: UserEntity
    let challenge: String
    /// ES256, EdDSA, RS256: in the order the server prefers them.
    var pubKeyCredParams = [-7, -8, -257].map { Parameter(alg: $0) }
    var timeout = Int(WebAuthnChallenges.lifetime.seconds * 1000)
    let excludeCredentials: [CredentialDescriptor]
    var authenticatorSelection = Selection()
    var attestation = "none"
}

/// `PublicKeyCredentialRequestOptionsJSON`, as `PublicKeyCredential.parseRequestOptionsFromJSON`
/// reads it. An empty `allowCredentials` lets the browser offer every passkey it holds for
/// the RP ID (discoverable credentials).
struct RequestOptions: Content {
    let challenge: String
    var timeout = Int(WebAuthnChallenges.lifetime.seconds * 1000)
    let rpId: String
    let allowCredentials: [CredentialDescriptor]
    var userVerification = "required"
}

extension UUID {
    /// The 16 bytes of the UUID: a user's WebAuthn user handle.
    var handleBytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }

    /// The UUID of a 16-byte user handle; nil for any other length.
    init?(handle: [UInt8]) {
        guard handle.count == 16 else { return nil }
        var value = UUID().uuid
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: handle) }
        self.init(uuid: value)
    }
}
