/// The largest value each WebAuthn JSON member may decode to. Real authenticators stay far
/// below them; a request body above them is refused before any CBOR or OpenSSL work.
public enum WebAuthnLimits {
    /// Credential ids (L3 §7.1 step 25 caps them at 1023 bytes).
    public static let credentialID = 1023
    /// clientDataJSON: a browser writes about 250 bytes.
    public static let clientDataJSON = 4 * 1024
    /// An attestation object, with room for a packed x5c chain.
    public static let attestationObject = 16 * 1024
    /// Authenticator data of an assertion (no credential key; small extension outputs).
    public static let authenticatorData = 4 * 1024
    /// A signature: RSA 4096 is 512 bytes.
    public static let signature = 1024
    /// A user handle (L3 §5.4.3: at most 64 bytes).
    public static let userHandle = 64
    /// Transport hints: how many, and how long each.
    public static let transports = 8, transportLength = 32
    /// `authenticatorAttachment` ("platform" or "cross-platform"; unknown values pass, long ones not).
    public static let authenticatorAttachment = 32
}
