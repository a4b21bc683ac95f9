import COpenSSL
import Crypt

/// A self-signed P-256 certificate and its key, for packed attestation with x5c: the shape a
/// hardware authenticator's batch certificate has, trusted by nobody (as TIL trusts none).
struct AttestationCertificate {
    let key: EVPKey
    let der: [UInt8]

    /// `MBSTRING_ASC` (`MBSTRING_FLAG | 1`), a macro Swift does not import.
    private static let asciiString: Int32 = 0x1000 | 1

    static func make() throws -> AttestationCertificate {
        let key = try EVPKey.generate(.p256)
        guard let certificate = X509_new() else { throw OpenSSLError.failed("X509_new") }
        defer { X509_free(certificate) }
        let name = X509_get_subject_name(certificate)
        guard X509_set_version(certificate, 2) == 1, ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), 0) != nil, X509_gmtime_adj(X509_getm_notAfter(certificate), 3600) != nil,
            X509_set_pubkey(certificate, key.pointer) == 1,
            X509_NAME_add_entry_by_txt(name, "CN", asciiString, "TIL software authenticator", -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1, X509_sign(certificate, key.pointer, EVP_sha256()) > 0
        else { throw OpenSSLError.failed("building the attestation certificate") }
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw OpenSSLError.failed("i2d_X509") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { throw OpenSSLError.failed("i2d_X509") }
        return AttestationCertificate(key: key, der: der)
    }
}
