/// The cookies a request carries (RFC 6265 §5.4: `Cookie: a=1; b=2`), read on demand.
extension Request {
    /// The value of the cookie `name`: the first one sent, as browsers order the most specific
    /// first. Nil when absent. Values are taken as sent (TIL's cookies are base64url, never
    /// quoted or percent-encoded), and every `Cookie` header is read.
    public func cookie(_ name: String) -> String? {
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingASCIISpaces == name else { continue }
                return String(parts[1].trimmingASCIISpaces)
            }
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingASCIISpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
