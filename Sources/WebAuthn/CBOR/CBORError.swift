/// Why bytes were refused as CBOR. The decoder is strict: everything WebAuthn does not need,
/// and every encoding that has a shorter or definite equivalent, is refused by name.
public enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ends inside an item.
    case truncated
    /// Bytes follow the item where the caller expected it to end.
    case trailingBytes
    /// A string, array or map of indefinite length (additional information 31), or a break.
    case indefiniteLength
    /// An argument encoded longer than needed (e.g. 5 in two bytes), or additional information 28–30.
    case nonShortestForm
    /// A tag, a float, or a simple value other than false, true and null.
    case unsupported(String)
    /// Arrays and maps nested deeper than the limit.
    case tooDeep
    /// More data items in all than the limit.
    case tooManyItems
    /// A map with more entries than the limit.
    case mapTooLarge
    /// A string or array longer than the limit (or than the input).
    case tooLong
    /// The same key twice in one map.
    case duplicateMapKey
    /// A map key that is neither an integer nor a text string.
    case unsupportedMapKey
    /// A text string that is not UTF-8.
    case invalidUTF8

    public var description: String {
        switch self {
        case .truncated: "CBOR ends inside an item"
        case .trailingBytes: "bytes after the CBOR item"
        case .indefiniteLength: "indefinite-length CBOR"
        case .nonShortestForm: "CBOR argument not in its shortest form"
        case .unsupported(let what): "unsupported CBOR \(what)"
        case .tooDeep: "CBOR nested too deeply"
        case .tooManyItems: "too many CBOR items"
        case .mapTooLarge: "CBOR map too large"
        case .tooLong: "CBOR string or array too long"
        case .duplicateMapKey: "duplicate CBOR map key"
        case .unsupportedMapKey: "CBOR map key neither integer nor text"
        case .invalidUTF8: "CBOR text string not UTF-8"
        }
    }
}
