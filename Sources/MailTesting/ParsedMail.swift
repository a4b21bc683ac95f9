import Foundation

/// A message read back the way a mail client would: headers unfolded, the subject's
/// encoded-words decoded, and each MIME part's body decoded (quoted-printable or base64).
/// For tests that read what the sink received or what `.mail/` holds.
public struct ParsedMail: Sendable {
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    public struct Part: Sendable {
        public let headers: [Header]
        /// The body decoded from its transfer encoding, as UTF-8 text.
        public let text: String
        public var contentType: String { headers.first { $0.name.lowercased() == "content-type" }?.value ?? "text/plain" }
    }

    public let headers: [Header]
    /// The leaf parts (the message itself when it is not multipart).
    public let parts: [Part]

    public init(_ data: [UInt8]) {
        let (headers, body) = Self.split(data)
        self.headers = headers
        let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? "text/plain"
        if type.lowercased().hasPrefix("multipart/"), let boundary = Self.parameter("boundary", of: type) {
            parts = Self.parts(of: body, boundary: boundary)
        } else {
            parts = [Part(headers: headers, text: Self.decode(body, headers: headers))]
        }
    }

    /// The first header called `name` (any case), unfolded; raw (encoded-words kept).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every header called `name`.
    public func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The subject as a reader sees it (RFC 2047 encoded-words decoded).
    public var subject: String? { header("Subject").map(EncodedWords.decode) }

    /// The text/plain part's text.
    public var text: String? { parts.first { $0.contentType.lowercased().hasPrefix("text/plain") }?.text }

    /// The text/html part's text.
    public var html: String? { parts.first { $0.contentType.lowercased().hasPrefix("text/html") }?.text }

    // MARK: - Parsing

    /// Headers (folded lines joined) and the body after the first empty line.
    static func split(_ data: [UInt8]) -> ([Header], [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        let separator = text.range(of: "\r\n\r\n") ?? text.range(of: "\n\n")
        let head = separator.map { String(text[..<$0.lowerBound]) } ?? text
        let body = separator.map { Array(text[$0.upperBound...].utf8) } ?? []
        var headers: [Header] = []
        for line in head.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first == " " || first == "\t", let last = headers.popLast() {
                headers.append(Header(name: last.name, value: last.value + String(line)))
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].drop { $0 == " " }
                headers.append(Header(name: String(line[..<colon]), value: String(value)))
            }
        }
        return (headers, body)
    }

    /// `boundary="x"` or `boundary=x` of a Content-Type value.
    static func parameter(_ name: String, of value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.drop { $0 == " " }
            guard pair.lowercased().hasPrefix(name + "=") else { continue }
            var raw = pair.dropFirst(name.count + 1)
            if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 { raw = raw.dropFirst().dropLast() }
            return String(raw)
        }
        return nil
    }

    private static func parts(of body: [UInt8], boundary: String) -> [Part] {
        let text = "\n" + String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let delimiter = "--" + boundary
        var parts: [Part] = []
        for chunk in text.components(separatedBy: "\n" + delimiter).dropFirst() where !chunk.hasPrefix("--") {
            let content = chunk.drop { $0 != "\n" }.dropFirst()
            let (headers, partBody) = split(Array(String(content).utf8))
            let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? "text/plain"
            if type.lowercased().hasPrefix("multipart/"), let inner = parameter("boundary", of: type) {
                parts += Self.parts(of: partBody, boundary: inner)
            } else {
                parts.append(Part(headers: headers, text: decode(partBody, headers: headers)))
            }
        }
        return parts
    }

    private static func decode(_ body: [UInt8], headers: [Header]) -> String {
        let encoding = headers.first { $0.name.lowercased() == "content-transfer-encoding" }?.value.lowercased() ?? "7bit"
        let text = String(decoding: body, as: UTF8.self)
        switch encoding {
        case "quoted-printable": return String(decoding: QuotedPrintableDecoding.decode(text), as: UTF8.self)
        case "base64":
            let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) ?? Data()
            return String(decoding: data, as: UTF8.self)
        default: return text
        }
    }
}
