/// Decodes a request body by its content type. JSON only: anything else is a 415; an empty
/// body, malformed JSON or a NUL in a string a 400 whose reason names the problem.
public struct ContentContainer: Sendable {
    let headers: HTTPHeaders
    let body: [UInt8]

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let contentType = headers["Content-Type"] else {
            throw Abort(.unsupportedMediaType, reason: "Missing Content-Type; send application/json.")
        }
        guard Self.isJSON(contentType) else {
            throw Abort(.unsupportedMediaType, reason: "Unsupported Content-Type '\(contentType.prefix(64))'; send application/json.")
        }
        guard !body.isEmpty else {
            throw Abort(.badRequest, reason: "The request body is empty.")
        }
        guard !JSONNULScan.containsNUL(body) else {
            throw Abort(.badRequest, reason: "JSON strings must not contain NUL (\\u0000).")
        }
        return try JSON.decode(type, from: body)
    }

    /// `application/json` or any `+json` type, parameters (charset) ignored.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: " \t") } ?? ""
        let lowered = mediaType.lowercased()
        return lowered == "application/json" || (lowered.hasPrefix("application/") && lowered.hasSuffix("+json"))
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
