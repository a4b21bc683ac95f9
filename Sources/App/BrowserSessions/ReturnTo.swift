/// Where a login sends the browser afterwards: only a path on this server, so the login page
/// cannot be made into an open redirect. A path starts with one `/` and not `//` or `/\`
/// (both would be read as another host), has no scheme, no control or space characters, no
/// backslash anywhere (browsers turn it into `/`), and no fragment; at most 8192 bytes.
enum ReturnTo {
    static let maxLength = 8192

    /// `value` when it is a local path, else nil.
    static func validated(_ value: String) -> String? {
        guard value.utf8.count <= maxLength, value.hasPrefix("/"), !value.hasPrefix("//") else { return nil }
        for byte in value.utf8 {
            switch byte {
            case 0...0x20, 0x7F, UInt8(ascii: "\\"), UInt8(ascii: "#"): return nil
            case 0x80...: return nil  // a browser would percent-encode it: it never sends one raw
            default: continue
            }
        }
        return value
    }
}
