/// A PKCE pair (RFC 7636) with the only method TIL takes, S256: the verifier stays here until
/// the code is exchanged; the authorization URL carries only its digest, the challenge.
public struct ProofKey: Sendable, Equatable {
    /// 43 to 128 characters of `[A-Za-z0-9-._~]` (§4.1).
    public let verifier: String

    /// `code_challenge_method`.
    public static let method = "S256"

    /// A new verifier: 32 bytes from the system's secure generator, base64url-encoded (43
    /// characters, 256 bits), as §4.1 recommends.
    public init() {
        verifier = Base64URL.random(bytes: 32)
    }

    /// A given verifier; nil unless it is one §4.1 allows.
    public init?(verifier: String) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        guard (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(allowed.contains) else { return nil }
        self.verifier = verifier
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))` (§4.2).
    public var challenge: String { Base64URL.encode(SHA256.hash(Array(verifier.utf8))) }
}
