/// Attested credential data (WebAuthn L3 §6.5.1): AAGUID (16) ‖ credentialIdLength (2,
/// big-endian) ‖ credentialId ‖ credentialPublicKey (a COSE_Key, in CBOR). The key's bytes are
/// kept exactly as the authenticator wrote them: they are what the server stores.
public struct AttestedCredentialData: Sendable {
    /// Credential ids longer than this are refused (§7.1 step 25).
    public static let maxCredentialIDLength = 1023

    public let aaguid: [UInt8]
    public let credentialID: [UInt8]
    /// The COSE_Key's CBOR bytes.
    public let publicKeyBytes: [UInt8]
    public let publicKey: COSEKey

    /// The data at the start of `bytes` and how many bytes it took (extensions may follow).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (AttestedCredentialData, Int) {
        guard bytes.count >= 18 else { throw .malformed("attested credential data shorter than 18 bytes") }
        let start = bytes.startIndex
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard idLength <= maxCredentialIDLength else { throw .credentialIDTooLong }
        guard idLength > 0 else { throw .malformed("an empty credential id") }
        guard bytes.count >= 18 + idLength else { throw .malformed("the credential id runs past the data") }
        let keyStart = start + 18 + idLength
        let value: CBORValue, keyLength: Int
        do { (value, keyLength) = try CBORDecoder.decodePrefix(bytes[keyStart...]) } catch { throw .cbor(error) }
        let data = AttestedCredentialData(
            aaguid: Array(bytes[start..<start + 16]),
            credentialID: Array(bytes[start + 18..<keyStart]),
            publicKeyBytes: Array(bytes[keyStart..<keyStart + keyLength]),
            publicKey: try COSEKey(value))
        return (data, 18 + idLength + keyLength)
    }
}
