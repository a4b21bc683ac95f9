/// How a request's body is delimited, decided from its head (RFC 9112 §6.3), refusing every
/// ambiguous combination a proxy and a server could read differently (request smuggling).
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked

    init(head: HTTPRequestHead, limits: HTTPServerLimits) throws(HTTPParseError) {
        let hosts = head.headers.values(for: "Host")
        if head.version == .http1_1 && hosts.count != 1 || hosts.count > 1 {
            throw .badRequest(hosts.isEmpty ? "Missing Host header." : "More than one Host header.")
        }
        let encodings = head.headers.values(for: "Transfer-Encoding")
        let lengths = head.headers.values(for: "Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else { throw .badRequest("Both Content-Length and Transfer-Encoding.") }
            guard head.version == .http1_1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request.") }
            let codings = encodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingSpaces() }
            guard codings.count == 1, String(codings[0]).equalsASCIICaseInsensitive("chunked") else {
                throw .badRequest("Unsupported Transfer-Encoding; only chunked is accepted.")
            }
            self = .chunked
            return
        }
        guard !lengths.isEmpty else {
            self = .none
            return
        }
        var length: Int?
        for value in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = value.trimmingSpaces()
            guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let parsed = Int(digits) else {
                throw .badRequest("Invalid Content-Length.")
            }
            guard length == nil || length == parsed else { throw .badRequest("Conflicting Content-Length values.") }
            length = parsed
        }
        guard let length else { throw .badRequest("Invalid Content-Length.") }
        guard length <= limits.maxBodyBytes else { throw .contentTooLarge }
        self = length == 0 ? .none : .length(length)
    }
}
