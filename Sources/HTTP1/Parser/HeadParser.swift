/// Turns the scanned lines of a head into an `HTTPRequestHead`, validating the request line
/// and each field line (RFC 9112 §3 and §5).
enum HeadParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, lines: [HeadScanner.Line]) throws(HTTPParseError) -> HTTPRequestHead {
        let (method, target, version) = try requestLine(bytes, lines[0])
        var headers = HTTPHeaders()
        headers.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            let (name, value) = try field(bytes, line)
            headers.add(name: name, value: value)
        }
        return HTTPRequestHead(method: method, target: target, version: version, headers: headers)
    }

    private static func requestLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: HeadScanner.Line
    ) throws(HTTPParseError) -> (HTTPMethod, String, HTTPVersion) {
        guard let firstSpace = line.first(where: { bytes[$0] == 0x20 }), firstSpace > line.lowerBound else {
            throw .badRequest("Malformed request line.")
        }
        let methodRange = line.lowerBound..<firstSpace
        guard methodRange.allSatisfy({ isTokenByte(bytes[$0]) }) else { throw .badRequest("Malformed method.") }
        let rest = (firstSpace + 1)..<line.upperBound
        guard let secondSpace = rest.first(where: { bytes[$0] == 0x20 }), secondSpace > rest.lowerBound else {
            throw .badRequest("Malformed request line.")
        }
        let targetRange = rest.lowerBound..<secondSpace
        let versionRange = (secondSpace + 1)..<line.upperBound
        guard targetRange.allSatisfy({ bytes[$0] > 0x20 && bytes[$0] != 0x7F }) else {
            throw .badRequest("Malformed request target.")
        }
        let version = try parseVersion(bytes, versionRange)
        let method = HTTPMethod(rawValue: string(bytes, methodRange))
        let target = string(bytes, targetRange)
        let first = bytes[targetRange.lowerBound]
        let isOrigin = first == UInt8(ascii: "/")
        let isAsterisk = target == "*" && method == .options
        let isAbsolute = target.hasPrefix("http://") || target.hasPrefix("https://")
        guard isOrigin || isAsterisk || isAbsolute else { throw .badRequest("Malformed request target.") }
        return (method, target, version)
    }

    /// `HTTP/x.y` with single digits; 1.0 and 1.1 are served, other versions get 505.
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(HTTPParseError) -> HTTPVersion {
        let at = range.lowerBound
        guard range.count == 8, bytes[at] == UInt8(ascii: "H"), bytes[at + 1] == UInt8(ascii: "T"),
              bytes[at + 2] == UInt8(ascii: "T"), bytes[at + 3] == UInt8(ascii: "P"), bytes[at + 4] == UInt8(ascii: "/"),
              bytes[range.lowerBound + 6] == UInt8(ascii: "."),
              let major = digit(bytes[range.lowerBound + 5]), let minor = digit(bytes[range.lowerBound + 7])
        else { throw .badRequest("Malformed HTTP version.") }
        guard major == 1, minor <= 1 else { throw .versionNotSupported }
        return HTTPVersion(major: major, minor: minor)
    }

    private static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ line: HeadScanner.Line) throws(HTTPParseError) -> (String, String) {
        let first = bytes[line.lowerBound]
        guard first != 0x20 && first != 0x09 else { throw .badRequest("Obsolete line folding is not accepted.") }
        guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }), colon > line.lowerBound else {
            throw .badRequest("Malformed header field.")
        }
        let nameRange = line.lowerBound..<colon
        guard nameRange.allSatisfy({ isTokenByte(bytes[$0]) }) else { throw .badRequest("Malformed header field name.") }
        var start = colon + 1
        var end = line.upperBound
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return (string(bytes, nameRange), string(bytes, start..<end))
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
