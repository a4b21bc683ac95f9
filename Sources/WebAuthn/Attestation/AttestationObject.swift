/// The attestation object (WebAuthn L3 §6.5.4): a CBOR map of `fmt` (text), `attStmt` (a map
/// whose members the format defines) and `authData` (bytes). The authenticator data must carry
/// attested credential data: registration is what it is for.
struct AttestationObject: Sendable {
    let format: String
    let statement: CBORValue
    let authenticatorDataBytes: [UInt8]
    let authenticatorData: AuthenticatorData
    let credential: AttestedCredentialData

    init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder.decode(bytes) } catch { throw .cbor(error) }
        guard let format = value["fmt"]?.text, let statement = value["attStmt"], statement.entries != nil,
            let authData = value["authData"]?.bytes
        else { throw .malformed("the attestation object lacks fmt, attStmt or authData") }
        self.format = format
        self.statement = statement
        authenticatorDataBytes = authData
        authenticatorData = try AuthenticatorData(bytes: authData)
        guard let credential = authenticatorData.attestedCredential else {
            throw .malformed("registration authenticator data without attested credential data")
        }
        self.credential = credential
    }
}
