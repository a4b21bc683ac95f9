/// Finds a NUL in a JSON document before it is decoded: `JSONDecoder` turns `\u0000` into a
/// real NUL inside a `String`, which C code further down (libpq, crypt) would silently cut.
enum JSONNULScan {
    /// True when `bytes` hold a raw NUL byte or the escape `\u0000`. Escape-aware: in
    /// `\\u0000` the backslash is itself escaped, so the `u0000` after it is plain text.
    static func containsNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0:
                    return true
                case UInt8(ascii: "\\"):
                    // Skip the escaped character, so a backslash pair never starts an escape.
                    if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                       bytes[index + 2] == zero, bytes[index + 3] == zero, bytes[index + 4] == zero, bytes[index + 5] == zero {
                        return true
                    }
                    index += 2
                default:
                    index += 1
                }
            }
            return false
        }
    }

    private static let zero = UInt8(ascii: "0")
}
