import Crypt

/// RFC 7636 with `S256` only (OAuth 2.1 has no `plain`): the verifier is 43 to 128 unreserved
/// characters, and BASE64URL(SHA256(verifier)) must equal the challenge, compared in constant time.
enum PKCE {
    static func isVerifier(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            }
    }

    static func challenge(of verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }

    static func verifies(_ verifier: String, challenge: String) -> Bool {
        isVerifier(verifier) && ConstantTime.equals(Self.challenge(of: verifier), challenge)
    }
}
