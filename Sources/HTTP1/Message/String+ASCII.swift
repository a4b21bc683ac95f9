// The ASCII comparisons and trimming that HTTP's case-insensitive tokens need (RFC 9110 §5.1).
// `package`: the framework compares header tokens too, but they are no part of the public API.

extension String {
    /// ASCII case-insensitive equality, without allocating lowercased copies.
    package func equalsASCIICaseInsensitive(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native strings are contiguous UTF-8: compare the bytes in place (header names are
        // compared several times per request, and iterating two `UTF8View`s is far slower).
        let compared = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in Self.equalsASCIICaseInsensitive(a, b) }
        }
        if let result = compared ?? nil { return result }
        return Self.equalsASCIICaseInsensitive(Array(utf8), Array(other.utf8))
    }

    private static func equalsASCIICaseInsensitive(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// Without leading and trailing spaces and tabs (optional whitespace around field values).
    func trimmingSpaces() -> Substring { Substring(self).trimmingSpaces() }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
