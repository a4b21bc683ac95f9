import Crypt

/// The `allowCredentials` answered for a username that has no passkeys (unknown, or a user
/// without any): credentials that look like a real user's, derived by HMAC from the username
/// as PostgreSQL folds it, so the same name always gets the same list (asking twice cannot tell
/// a decoy from a real list) and every process with the same `SECRET_KEY` answers alike. Its
/// key is derived from `SECRET_KEY` for this purpose alone.
struct DecoyCredentials: Sendable {
    private let key: [UInt8]
    static let purpose = "til webauthn decoy credentials v1"

    /// Keyed from `secret`; without one (never in `serve`, which requires it) a random key for
    /// this process.
    init(secret: SecretKey?) {
        key = secret?.derivedKey(purpose: Self.purpose) ?? SecureRandom.bytes(count: 32)
    }

    /// The decoy list of `foldedUsername`: one passkey for most names, two or three for some,
    /// as people hold them; ids of the lengths common authenticators use, with their transports.
    func descriptors(for foldedUsername: String) -> [CredentialDescriptor] {
        let seed = HMACDigest.sha256(key: key, message: Array(foldedUsername.utf8))
        let count = seed[0] < 180 ? 1 : seed[0] < 236 ? 2 : 3
        return (0..<count).map { index in
            let material = HMACDigest.sha256(key: key, message: seed + [UInt8(index)])
            let length = Self.idLengths[Int(material[0]) % Self.idLengths.count]
            var id: [UInt8] = []
            var block = material
            while id.count < length {
                block = HMACDigest.sha256(key: key, message: block)
                id += block
            }
            return CredentialDescriptor(
                id: Base64URL.encode(Array(id.prefix(length))),
                transports: Self.transports[Int(material[1]) % Self.transports.count])
        }
    }

    /// Credential id lengths of common authenticators (platform keychains, security keys).
    static let idLengths = [16, 20, 32, 32, 48, 64]
    static let transports = [["hybrid", "internal"], ["internal"], ["usb"], ["nfc", "usb"], ["hybrid", "internal"]]
}
