/// A strict decoder for the subset of CBOR (RFC 8949) that WebAuthn uses: attestation objects,
/// COSE keys and extension outputs. Definite lengths only, every argument in its shortest
/// form (as CTAP2's canonical encoding requires of authenticators), map keys integers or text
/// and never repeated, no tags, floats or undefined. `CBORLimits` bound depth, items, map
/// size and string length, so no input can exhaust memory or the stack; every refusal is a
/// typed `CBORError`, never a trap.
public enum CBORDecoder {
    /// The one item `bytes` holds; bytes after it are refused (`trailingBytes`).
    public static func decode(_ bytes: [UInt8], limits: CBORLimits = CBORLimits()) throws(CBORError) -> CBORValue {
        let (value, length) = try decodePrefix(bytes[...], limits: limits)
        guard length == bytes.count else { throw .trailingBytes }
        return value
    }

    /// The first item of `bytes` and how many bytes it took, for inputs where more follows
    /// (authenticator data: the credential's COSE key, then extensions).
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>, limits: CBORLimits = CBORLimits()) throws(CBORError) -> (
        value: CBORValue, length: Int
    ) {
        var reader = Reader(bytes: bytes, limits: limits)
        let value = try reader.item(depth: 0)
        return (value, reader.position - bytes.startIndex)
    }
}

/// The cursor over the input, with the running item count.
private struct Reader {
    let bytes: ArraySlice<UInt8>
    let limits: CBORLimits
    var position: Int
    var items = 0

    init(bytes: ArraySlice<UInt8>, limits: CBORLimits) {
        self.bytes = bytes
        self.limits = limits
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.endIndex else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: Int) throws(CBORError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .truncated }
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// One data item; `depth` counts the arrays and maps around it.
    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        items += 1
        guard items <= limits.maxItems else { throw .tooManyItems }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try simple(info) }
        guard info != 31 else { throw .indefiniteLength }
        let argument = try self.argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try take(length(argument))))
        case 3:
            guard let text = String(validating: try take(length(argument)), as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            guard depth < limits.maxDepth else { throw .tooDeep }
            let count = try length(argument)
            var elements: [CBORValue] = []
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard depth < limits.maxDepth else { throw .tooDeep }
            guard argument <= UInt64(limits.maxMapEntries) else { throw .mapTooLarge }
            return .map(try entries(Int(argument), depth: depth))
        default:
            throw .unsupported("tag")
        }
    }

    mutating func entries(_ count: Int, depth: Int) throws(CBORError) -> [CBORMapEntry] {
        var entries: [CBORMapEntry] = []
        for _ in 0..<count {
            let key = try item(depth: depth + 1)
            switch key {
            case .unsigned, .negative, .text: break
            default: throw .unsupportedMapKey
            }
            guard !entries.contains(where: { $0.key == key }) else { throw .duplicateMapKey }
            entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
        }
        return entries
    }

    /// Major type 7: only false, true and null.
    func simple(_ info: UInt8) throws(CBORError) -> CBORValue {
        switch info {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        case 23: throw .unsupported("undefined")
        case 25, 26, 27: throw .unsupported("float")
        case 31: throw .indefiniteLength  // a break outside an indefinite item
        default: throw .unsupported("simple value")
        }
    }

    /// The argument after the initial byte, refused unless written in the fewest bytes.
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        default: throw .unsupported("reserved additional information")
        }
        var value: UInt64 = 0
        for byte in try take(width) { value = value << 8 | UInt64(byte) }
        let smallest: UInt64 = switch width {
        case 1: 24
        case 2: 0x100
        case 4: 0x1_0000
        default: 0x1_0000_0000
        }
        guard value >= smallest else { throw .nonShortestForm }
        return value
    }

    /// A string's byte count or an array's element count, within the limit and the input (every
    /// element takes at least one byte).
    func length(_ argument: UInt64) throws(CBORError) -> Int {
        guard argument <= UInt64(limits.maxLength) else { throw .tooLong }
        guard argument <= UInt64(remaining) else { throw .truncated }
        return Int(argument)
    }
}
