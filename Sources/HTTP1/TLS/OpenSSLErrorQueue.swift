import COpenSSL

/// OpenSSL reports failures on a per-thread error queue. Every SSL call starts from an empty
/// queue (`clear()`), and a failure's queue is emptied after reading it, so one connection's
/// leftovers never explain another's error on the same loop thread.
enum OpenSSLErrorQueue {
    static func clear() {
        ERR_clear_error()
    }

    /// The newest queued error says that a private key does not belong to the certificate.
    static var lastIsKeyMismatch: Bool {
        let reason = ERR_GET_REASON(ERR_peek_last_error())
        return reason == X509_R_KEY_VALUES_MISMATCH || reason == SSL_R_PRIVATE_KEY_MISMATCH
    }

    /// The queued errors as text ("error:0A00018F:SSL routines::ee key too small; ..."), emptying the queue.
    static func drain() -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no details from OpenSSL" : messages.joined(separator: "; ")
    }
}
