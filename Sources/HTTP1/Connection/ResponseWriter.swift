/// Serialises responses to HTTP/1.1 bytes: status line, the responder's headers, then the
/// framing headers the server owns. One contiguous buffer, so a response is usually one `send`.
/// `package`, so the in-process test transport answers with exactly the bytes a live server writes.
package enum ResponseWriter {
    package static func write(
        _ response: HTTPResponse,
        keepAlive: Bool,
        isHeadRequest: Bool,
        requestVersion: HTTPVersion,
        date: String,
        serverName: String,
        into buffer: inout [UInt8]
    ) {
        let status = response.status
        buffer.reserveCapacity(buffer.count + 160 + response.body.count)
        append("HTTP/1.1 ", to: &buffer)
        appendDecimal(status.code, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        append(status.reasonPhrase, to: &buffer)
        append("\r\n", to: &buffer)
        for field in response.headers.fields where !isFramingHeader(field.name) {
            append(field.name, to: &buffer)
            append(": ", to: &buffer)
            append(field.value, to: &buffer)
            append("\r\n", to: &buffer)
        }
        if !status.forbidsBody {
            append("Content-Length: ", to: &buffer)
            appendDecimal(response.body.count, to: &buffer)
            append("\r\n", to: &buffer)
        }
        if !keepAlive {
            append("Connection: close\r\n", to: &buffer)
        } else if requestVersion == .http1_0 {
            append("Connection: keep-alive\r\n", to: &buffer)
        }
        append("Date: ", to: &buffer)
        append(date, to: &buffer)
        append("\r\nServer: ", to: &buffer)
        append(serverName, to: &buffer)
        append("\r\n\r\n", to: &buffer)
        if !isHeadRequest && !status.forbidsBody {
            buffer.append(contentsOf: response.body)
        }
    }

    /// The interim response for `Expect: 100-continue`.
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Headers the server computes itself; a responder's copies would contradict the framing.
    private static func isFramingHeader(_ name: String) -> Bool {
        name.equalsASCIICaseInsensitive("Content-Length") || name.equalsASCIICaseInsensitive("Transfer-Encoding")
            || name.equalsASCIICaseInsensitive("Connection") || name.equalsASCIICaseInsensitive("Date")
            || name.equalsASCIICaseInsensitive("Server")
    }

    /// A non-negative integer in decimal, without the `String` that interpolation would build.
    private static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    @inline(__always)
    private static func append(_ string: String, to buffer: inout [UInt8]) {
        var string = string
        string.withUTF8 { buffer.append(contentsOf: $0) }
    }
}
