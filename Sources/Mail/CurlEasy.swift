import CCurl
import Foundation

/// One libcurl easy handle: a C pointer owned here and freed in `deinit`. Between two
/// messages it keeps the SMTP connection open (libcurl's connection cache), so a burst of
/// mail pays for one TLS handshake, not one per message.
///
/// Not `Sendable`: a handle must never be used by two threads at once (libcurl's rule).
/// `SMTPClient` holds it behind its lock.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    /// libcurl writes its message for the last failure here (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// libcurl's process-wide set-up, once, before the first handle (thread-safe since 7.84).
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Its sockets, for `abort()` from another thread (held: the callbacks point at it).
    private let watch: ConnectionWatch

    init(watch: ConnectionWatch) throws(SMTPError) {
        guard Self.globalSetUp == CURLE_OK, let handle = curl_easy_init() else {
            throw SMTPError(kind: .other, detail: "libcurl could not be initialised")
        }
        self.handle = handle
        self.watch = watch
        watch.install(on: handle)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        _ = ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = ccurl_setopt_long(handle, option, value)
    }

    /// libcurl copies string options (since 7.17), so `value` need not outlive the call.
    func set(_ option: CURLoption, _ value: String?) {
        guard let value else { return }
        _ = value.withCString { ccurl_setopt_string(handle, option, $0) }
    }

    /// Runs one transfer of `bytes` as the upload, to the recipients in `recipients`
    /// (a `curl_slist` made and freed here). Returns libcurl's result and the server's last reply code.
    func perform(uploading bytes: [UInt8], recipients: [String]) -> (code: CURLcode, reply: Int, message: String) {
        var list: UnsafeMutablePointer<curl_slist>?
        for recipient in recipients { list = curl_slist_append(list, recipient) }
        defer { curl_slist_free_all(list) }
        _ = ccurl_setopt_list(handle, CURLOPT_MAIL_RCPT, list)
        let upload = Upload(bytes)
        let code = withExtendedLifetime(upload) { () -> CURLcode in
            _ = ccurl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque())
            _ = ccurl_setopt_read_function(handle, Upload.read)
            errorBuffer[0] = 0
            return curl_easy_perform(handle)
        }
        var reply = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let detail = String(cString: errorBuffer)
        return (code, reply, detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }

    /// The message, handed to libcurl's read callback piece by piece.
    private final class Upload {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let read: curl_read_callback = { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let upload = Unmanaged<Upload>.fromOpaque(context).takeUnretainedValue()
            let length = min(size * count, upload.bytes.count - upload.offset)
            upload.bytes.withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + upload.offset, byteCount: length)
            }
            upload.offset += length
            return length
        }
    }
}
