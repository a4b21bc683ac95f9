import WebAuthn

/// What a `SoftwareAuthenticator` should get wrong in one response, to prove each refusal.
/// Every member is nil/false by default: an honest response.
public struct Tampering: Sendable {
    /// clientDataJSON members.
    public var type: String?
    public var origin: String?
    public var challenge: [UInt8]?
    public var crossOrigin: Bool?
    /// The RP ID whose hash goes into the authenticator data.
    public var rpID: String?
    /// Flags forced on (true) or off (false).
    public var userPresent: Bool?
    public var userVerified: Bool?
    public var backupEligible: Bool?
    public var backedUp: Bool?
    /// The counter written instead of the authenticator's own.
    public var signCount: UInt32?
    /// One bit of the signature flipped.
    public var badSignature = false
    /// clientDataJSON changed after it was signed over.
    public var alterClientDataJSON: (@Sendable ([UInt8]) -> [UInt8])?
    /// The user handle of an assertion (registration remembers the real one).
    public var userHandle: [UInt8]?
    /// The COSE `alg` written into the credential key at registration.
    public var coseAlgorithm: Int?
    /// A credential id of this many bytes at registration (the JSON's rawId follows it).
    public var credentialIDLength: Int?
    /// The JSON's rawId/id, when it should differ from the attested credential id.
    public var rawID: [UInt8]?

    public init(_ configure: (inout Tampering) -> Void = { _ in }) {
        configure(&self)
    }
}

/// The attestation a registration carries.
public enum AttestationStyle: Sendable {
    /// `fmt: "none"`, an empty statement.
    case none
    /// `fmt: "packed"`, signed by the credential key.
    case packedSelf
    /// `fmt: "packed"` with x5c: a self-signed P-256 certificate's key signs.
    case packedCertificate
}
