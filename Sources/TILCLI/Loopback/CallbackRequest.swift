import Foundation

/// What the loopback listener makes of one request head: the browser's redirect, or a refusal.
enum CallbackRequest: Equatable {
    /// `GET /callback?...` to this listener: the request target, as sent.
    case callback(String)
    case refused(LoopbackPage)

    /// `head` (nil: none arrived whole) from a connection to `127.0.0.1:port`.
    static func parse(_ head: [UInt8]?, port: UInt16) -> CallbackRequest {
        guard let head, head.allSatisfy({ $0 == 13 || $0 == 10 || (0x20...0x7E).contains($0) }) else { return .refused(.badRequest) }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, ["HTTP/1.1", "HTTP/1.0"].contains(requestLine[2]), requestLine[1].hasPrefix("/") else {
            return .refused(.badRequest)
        }
        guard requestLine[0] == "GET" else { return .refused(.methodNotAllowed) }
        let target = String(requestLine[1])
        guard target.prefix(while: { $0 != "?" }) == LoopbackListener.path else { return .refused(.notFound) }
        // The browser names this listener; a page that rebound its own name to 127.0.0.1 does not.
        let hosts = lines.dropFirst().compactMap { line -> Substring? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "host" else { return nil }
            return line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        }
        guard hosts.count == 1, hosts[0].trimmingSuffix() == "127.0.0.1:\(port)" else { return .refused(.badRequest) }
        return .callback(target)
    }
}

private extension Substring {
    func trimmingSuffix() -> Substring {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
