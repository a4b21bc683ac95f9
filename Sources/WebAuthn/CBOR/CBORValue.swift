/// One decoded CBOR data item (RFC 8949 §3), of the kinds WebAuthn uses: integers, byte and
/// text strings, arrays, maps, and the simple values false, true and null. Floats, tags and
/// other simple values are refused by the decoder, so they have no case here.
public enum CBORValue: Sendable, Equatable {
    case unsigned(UInt64)
    /// The negative integer −1 − n (major type 1 carries n), which may not fit in an `Int64`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in encoded order; keys are integers or text and never repeat.
    case map([CBORMapEntry])
    case bool(Bool)
    case null

    /// The value as an `Int` when it is an integer that fits.
    public var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    public var text: String? {
        if case .text(let text) = self { text } else { nil }
    }

    public var entries: [CBORMapEntry]? {
        if case .map(let entries) = self { entries } else { nil }
    }

    /// The value under `key` when this is a map.
    public subscript(_ key: CBORValue) -> CBORValue? {
        entries?.first { $0.key == key }?.value
    }

    /// The value under the integer key `key` (COSE_Key labels).
    public subscript(_ label: Int) -> CBORValue? {
        self[label >= 0 ? .unsigned(UInt64(label)) : .negative(UInt64(-1 - label))]
    }

    /// The value under the text key `key` (attestation object members).
    public subscript(_ name: String) -> CBORValue? {
        self[.text(name)]
    }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Equatable {
    public let key: CBORValue
    public let value: CBORValue

    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
