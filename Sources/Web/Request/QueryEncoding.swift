/// The reverse of `QueryParameters`: names and values percent-encoded into a query string
/// (RFC 3986: everything but the unreserved characters escaped, UTF-8 bytes each as `%XX`),
/// for a redirect's `Location` or a link.
public enum QueryEncoding {
    /// `a=1&b=x%20y`, in the order given.
    public static func encode(_ pairs: some Sequence<(name: String, value: String)>) -> String {
        pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    /// `uri` with `pairs` added to its query (after `&` when it has one already).
    public static func appending(_ pairs: [(name: String, value: String)], to uri: String) -> String {
        guard !pairs.isEmpty else { return uri }
        return uri + (uri.contains("?") ? "&" : "?") + encode(pairs)
    }

    /// `text` with every byte but the unreserved ones (`A–Z a–z 0–9 - . _ ~`) as `%XX`.
    public static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
