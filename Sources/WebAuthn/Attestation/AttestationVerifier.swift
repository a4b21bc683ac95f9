import Crypt

/// Verifies an attestation statement (WebAuthn L3 §7.1 steps 21–24) for the formats TIL
/// checks: `none` (§8.7, an empty statement) and `packed` (§8.2: self attestation with the
/// credential key, or x5c with the leaf certificate's key, which nothing then trusts). Other
/// formats are accepted as unattested: TIL's options ask for no attestation.
enum AttestationVerifier {
    static func verify(_ object: AttestationObject, clientDataHash: [UInt8]) throws(WebAuthnError) -> AttestationKind {
        switch object.format {
        case "none":
            guard object.statement.entries?.isEmpty == true else { throw .attestationInvalid("format none with a statement") }
            return .none
        case "packed":
            return try packed(object, signed: object.authenticatorDataBytes + clientDataHash)
        default:
            return .unverified
        }
    }

    /// §8.2's verification procedure. The x5c certificate's own requirements (§8.2.1) and its
    /// AAGUID extension are not checked: a chain that leads to no trusted root proves nothing more.
    private static func packed(_ object: AttestationObject, signed message: [UInt8]) throws(WebAuthnError) -> AttestationKind {
        let statement = object.statement
        guard let alg = statement["alg"]?.int, let signature = statement["sig"]?.bytes else {
            throw .attestationInvalid("packed without alg and sig")
        }
        guard let certificates = statement["x5c"] else {
            guard alg == object.credential.publicKey.algorithm.rawValue else {
                throw .attestationInvalid("self attestation's alg is not the credential's")
            }
            guard object.credential.publicKey.verify(signature, over: message) else { throw .attestationInvalid("bad self signature") }
            return .selfAttested
        }
        guard case .array(let chain) = certificates, let leaf = chain.first?.bytes, chain.allSatisfy({ $0.bytes != nil }) else {
            throw .attestationInvalid("x5c is not an array of certificates")
        }
        guard let algorithm = COSEAlgorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        let key = try CertificateKey.publicKey(ofDER: leaf)
        let fits = switch algorithm {  // OpenSSL would verify an ECDSA or RSA signature under any alg
        case .es256: key.isA("EC") && key.groupName == "prime256v1"
        case .edDSA: key.isA("ED25519")
        case .rs256: key.isA("RSA")
        }
        guard fits else { throw .attestationInvalid("x5c's certificate key is not for alg \(alg)") }
        guard key.verify(signature, over: message, digest: algorithm == .edDSA ? .none : .sha256) else {
            throw .attestationInvalid("bad x5c signature")
        }
        return .x5cUntrusted
    }
}
