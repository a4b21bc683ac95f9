import Foundation
public import Web

/// A response as a test client received it.
public struct TestResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public var bodyString: String { String(decoding: body, as: UTF8.self) }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// Parses one response from the front of `bytes` (framed by Content-Length, or by the end of
    /// the bytes when there is none); returns it and how many bytes it used, or nil if incomplete.
    public static func parse(_ bytes: ArraySlice<UInt8>, isHead: Bool = false) -> (TestResponse, Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.firstRange(of: terminator) else { return nil }
        let headText = String(decoding: bytes[bytes.startIndex..<headEnd.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let code = Int(statusLine[1]) else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let status = HTTPStatus(code: code, reasonPhrase: statusLine.count > 2 ? String(statusLine[2]) : "")
        let bodyStart = headEnd.upperBound
        let length: Int
        if isHead || status.forbidsBody {
            length = 0
        } else if let declared = headers["Content-Length"].flatMap(Int.init) {
            length = declared
        } else {
            length = bytes.endIndex - bodyStart
        }
        guard bytes.endIndex - bodyStart >= length else { return nil }
        let body = Array(bytes[bodyStart..<bodyStart + length])
        return (TestResponse(status: status, headers: headers, body: body), bodyStart + length - bytes.startIndex)
    }

    /// Every response in `bytes`, in order (for pipelining tests).
    public static func parseAll(_ bytes: [UInt8]) -> [TestResponse] {
        var responses: [TestResponse] = []
        var rest = bytes[...]
        while let (response, used) = parse(rest) {
            responses.append(response)
            rest = rest.dropFirst(used)
        }
        return responses
    }
}
