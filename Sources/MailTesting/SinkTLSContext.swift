import COpenSSL

/// The sink's OpenSSL server context for STARTTLS: a certificate chain and its key, loaded once.
///
/// `@unchecked Sendable`: configured completely in `init` and only read afterwards (each
/// connection makes its `SSL` from it), which OpenSSL allows from any number of threads.
final class SinkTLSContext: @unchecked Sendable {
    let context: OpaquePointer

    init(certificateFile: String, privateKeyFile: String) throws(MailSinkError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw .tls("cannot create a TLS context") }
        self.context = context
        guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1,
            SSL_CTX_use_PrivateKey_file(context, privateKeyFile, SSL_FILETYPE_PEM) == 1
        else {
            ERR_clear_error()
            throw .tls("cannot load \(certificateFile) and \(privateKeyFile)")
        }
    }

    deinit { SSL_CTX_free(context) }
}
