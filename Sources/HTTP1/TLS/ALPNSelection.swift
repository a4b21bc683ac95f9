import COpenSSL

/// Application-protocol negotiation (ALPN, RFC 7301): this server speaks HTTP/1.1 only.
///
/// A client that offers no ALPN at all (older tools, `openssl s_client`) is served HTTP/1.1
/// as usual: OpenSSL does not call the callback then. A client whose offer lacks `http/1.1`
/// (say only `h2`) is refused during the handshake with the `no_application_protocol` alert,
/// as the RFC asks, rather than getting HTTP/1.1 bytes it did not agree to.
enum ALPNSelection {
    static let http11: [UInt8] = Array("http/1.1".utf8)

    /// `SSL_CTX_alpn_select_cb_func`: points `out` at `http/1.1` inside the client's own list
    /// (which outlives the callback, as OpenSSL requires).
    static let selectHTTP11: SSL_CTX_alpn_select_cb_func = { _, out, outLength, offered, offeredLength, _ in
        guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_ALERT_FATAL }
        let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
        guard let start = offset(ofHTTP11In: list) else { return SSL_TLSEXT_ERR_ALERT_FATAL }
        out.pointee = offered + start
        outLength.pointee = UInt8(http11.count)
        return SSL_TLSEXT_ERR_OK
    }

    /// Where `http/1.1` starts in a wire-format protocol list (each name preceded by its
    /// one-byte length), or nil when it is not offered or the list is malformed.
    static func offset(ofHTTP11In list: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < list.count {
            let length = Int(list[index])
            let start = index + 1
            guard length > 0, start + length <= list.count else { return nil }
            if list[start..<start + length].elementsEqual(http11) { return start }
            index = start + length
        }
        return nil
    }
}
