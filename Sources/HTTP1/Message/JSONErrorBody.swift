/// The one JSON error body of every refusal, from the server's own 400, 408 and 503 to the
/// framework's `ErrorMiddleware`: `{"error":true,"reason":"..."}`, the reason escaped as a
/// JSON string (RFC 8259 §7) so no reason can break the document a client parses.
package enum JSONErrorBody {
    package static func render(reason: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(32 + reason.utf8.count)
        body.append(contentsOf: #"{"error":true,"reason":""#.utf8)
        appendEscaped(reason, to: &body)
        body.append(contentsOf: #""}"#.utf8)
        return body
    }

    /// `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes; everything
    /// else (UTF-8 included) as is.
    static func appendEscaped(_ text: String, to body: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): body.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): body.append(contentsOf: #"\\"#.utf8)
            case 0x0A: body.append(contentsOf: #"\n"#.utf8)
            case 0x0D: body.append(contentsOf: #"\r"#.utf8)
            case 0x09: body.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                body.append(contentsOf: #"\u00"#.utf8)
                body.append(hex[Int(byte >> 4)])
                body.append(hex[Int(byte & 0x0F)])
            default: body.append(byte)
            }
        }
    }
}

extension HTTPResponse {
    /// A JSON error response with `JSONErrorBody`'s body.
    package static func jsonError(_ status: HTTPStatus, reason: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: JSONErrorBody.render(reason: reason))
    }
}
