import COpenSSL
import Glibc
import Logging

/// The server's OpenSSL context (`SSL_CTX`): certificate, key and protocol policy, loaded once
/// at start-up and shared by every loop to create its connections' sessions.
///
/// Policy: TLS 1.2 and 1.3 only; for TLS 1.2 only ECDHE key exchange with AES-GCM or
/// ChaCha20-Poly1305, in the server's order (TLS 1.3 keeps OpenSSL's default suites, all AEAD);
/// no compression (CRIME), no renegotiation; ALPN `http/1.1` (`ALPNSelection`).
///
/// `@unchecked Sendable` is sound because the `SSL_CTX` is configured completely in `init` and
/// never changed by this code afterwards: OpenSSL allows one context to be shared by threads
/// that only create sessions from it; what sessions change in it (its reference count, the
/// server-side session cache) is guarded by OpenSSL's own locks.
final class TLSContext: @unchecked Sendable {
    /// The TLS 1.2 suites (Mozilla's "intermediate" list without finite-field DHE).
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// Owned: freed in `deinit`.
    private let context: OpaquePointer

    init(_ configuration: TLSConfiguration) throws(TLSSetupError) {
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSSetupError("cannot create a TLS context: \(OpenSSLErrorQueue.drain())")
        }
        self.context = context
        try applyPolicy()
        try loadCertificate(configuration.certificateFile)
        try loadPrivateKey(configuration.privateKeyFile, matching: configuration.certificateFile)
        SSL_CTX_set_alpn_select_cb(context, ALPNSelection.selectHTTP11, nil)
    }

    deinit { SSL_CTX_free(context) }

    /// A session for a freshly accepted socket, or nil when OpenSSL cannot allocate one.
    func makeSession(fd: Int32, logger: Logger, remoteAddress: String?) -> TLSSession? {
        TLSSession(context: context, fd: fd, logger: logger, remoteAddress: remoteAddress)
    }

    private func applyPolicy() throws(TLSSetupError) {
        guard copenssl_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1,
            SSL_CTX_set_cipher_list(context, Self.tls12Ciphers) == 1
        else {
            throw TLSSetupError("cannot apply the TLS policy: \(OpenSSLErrorQueue.drain())")
        }
        SSL_CTX_set_options(
            context,
            copenssl_OP_NO_COMPRESSION | copenssl_OP_NO_RENEGOTIATION | copenssl_OP_CIPHER_SERVER_PREFERENCE)
        // Partial writes and a moving buffer: `OutputBuffer` hands over whatever is unsent,
        // from an array that may grow (and move) before the retry. Released buffers: an idle
        // keep-alive connection holds no 34 KB of OpenSSL read/write buffers.
        _ = copenssl_CTX_set_mode(
            context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS))
        // Read ahead: one `read` takes a record's header and body (and any records behind it)
        // instead of two reads per record; `TLSSession.read` drains what OpenSSL buffered.
        copenssl_CTX_set_read_ahead(context, 1)
    }

    private func loadCertificate(_ path: String) throws(TLSSetupError) {
        try Self.checkReadable(path, what: "TLS certificate")
        guard SSL_CTX_use_certificate_chain_file(context, path) == 1 else {
            throw TLSSetupError("TLS certificate \(path) is not a usable PEM certificate: \(OpenSSLErrorQueue.drain())")
        }
    }

    private func loadPrivateKey(_ path: String, matching certificate: String) throws(TLSSetupError) {
        try Self.checkReadable(path, what: "TLS key")
        // OpenSSL compares the key with the certificate as it loads it (and again below).
        guard SSL_CTX_use_PrivateKey_file(context, path, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
            if OpenSSLErrorQueue.lastIsKeyMismatch {
                throw TLSSetupError("TLS key \(path) does not match the certificate \(certificate): \(OpenSSLErrorQueue.drain())")
            }
            throw TLSSetupError("TLS key \(path) is not a usable PEM private key: \(OpenSSLErrorQueue.drain())")
        }
    }

    /// OpenSSL's own message for a missing file is a generic BIO error: say which file and why.
    private static func checkReadable(_ path: String, what: String) throws(TLSSetupError) {
        guard access(path, R_OK) == 0 else {
            throw TLSSetupError("cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
    }
}
