public import Foundation

/// Encodes `Encodable` values straight into JSON bytes, in one pass.
///
/// Foundation's `JSONEncoder` builds a tree of boxed values and then serialises it; for a
/// 100-row list that is most of a request's CPU time. This encoder writes each key and value
/// as `encode(to:)` produces it, which works because synthesized (and almost all hand-written)
/// `Encodable` conformances fill their containers in order. A conformance that goes back to an
/// earlier container is detected (`OutOfOrder`) and the caller falls back to `JSONEncoder`.
/// Output matches `JSONEncoder`'s defaults (UUID uppercase string, Date as seconds since 2001,
/// Data as base64, nil optionals omitted), except that `/` is not escaped.
struct JSONStreamEncoder {
    struct OutOfOrder: Error {}

    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let sink = JSONSink()
        try sink.encodeValue(value)
        return sink.bytes
    }

    /// Encodes `Content` through its `writeJSON`, which may be hand-written for speed.
    static func encode(content value: some Content) throws -> [UInt8] {
        let sink = JSONSink()
        try value.writeJSON(to: sink)
        return sink.bytes
    }

    static func encode<Element: Content>(contents values: [Element]) throws -> [UInt8] {
        let sink = JSONSink()
        let id = sink.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"))
        for value in values {
            try sink.beginElement(in: id)
            try value.writeJSON(to: sink)
        }
        sink.closeContainers(downTo: 0)
        return sink.bytes
    }
}

/// The JSON output buffer and its stack of open containers: the sink of the streaming
/// `Encoder`, and a direct writer for models that write their own fields (`Content.writeJSON`).
public final class JSONSink {
    public internal(set) var bytes: [UInt8] = []
    /// Open containers: their id, closing byte, and whether they have an element yet.
    private var open: [(id: Int, close: UInt8, hasElement: Bool)] = []
    private var nextID = 0

    public init() { bytes.reserveCapacity(1024) }

    // MARK: Direct writing, for hand-written `Content.writeJSON`

    /// Writes `{ ... }`; `body` writes the fields with `field(_:_:)`.
    public func object(_ body: (JSONSink) throws -> Void) rethrows {
        let depth = open.count
        _ = openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        try body(self)
        closeContainers(downTo: depth)
    }

    /// A field of the innermost object. Keys are written as given: plain ASCII, no escaping.
    public func field(_ key: StaticString, _ value: String) {
        writeFieldKey(key)
        writeString(value)
    }

    public func field(_ key: StaticString, _ value: UUID) {
        writeFieldKey(key)
        writeUUID(value)
    }

    public func field(_ key: StaticString, _ value: Int) {
        writeFieldKey(key)
        writeRaw(String(value))
    }

    public func field(_ key: StaticString, _ value: Bool) {
        writeFieldKey(key)
        writeRaw(value ? "true" : "false")
    }

    /// A field whose value is an object.
    public func field(_ key: StaticString, object body: (JSONSink) throws -> Void) rethrows {
        writeFieldKey(key)
        try object(body)
    }

    /// A field whose value is any `Encodable`, through the streaming encoder.
    public func field(_ key: StaticString, encoding value: some Encodable) throws {
        writeFieldKey(key)
        try encodeValue(value)
    }

    private func writeFieldKey(_ key: StaticString) {
        guard let index = open.indices.last else { return }
        if open[index].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[index].hasElement = true
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    func closeContainers(downTo depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().close) }
    }

    // MARK: The streaming encoder's side

    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, not dynamic casts: this runs for every value of a response.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == UUID.self {
            writeUUID(unsafeBitCast(value, to: UUID.self))
        } else if T.self == Date.self {
            try writeDouble(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
        } else if T.self == Data.self {
            writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        } else if T.self == URL.self {
            writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else {
            let depth = open.count
            try value.encode(to: JSONStreamEncoderImpl(sink: self))
            closeContainers(downTo: depth)
        }
    }

    /// Opens a container and returns its id.
    func openContainer(_ start: UInt8, _ close: UInt8) -> Int {
        nextID += 1
        bytes.append(start)
        open.append((id: nextID, close: close, hasElement: false))
        return nextID
    }

    /// Writes the separator before a new element of container `id`, closing any containers
    /// nested in it that are finished.
    func beginElement(in id: Int) throws {
        guard let index = open.lastIndex(where: { $0.id == id }) else { throw JSONStreamEncoder.OutOfOrder() }
        while open.count > index + 1 { bytes.append(open.removeLast().close) }
        if open[index].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[index].hasElement = true
    }

    func writeKey(_ key: String, in id: Int) throws {
        try beginElement(in: id)
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Non-finite number"))
        }
        if value == value.rounded(), abs(value) < 1e15 {
            writeRaw(String(Int64(value)))
        } else {
            writeRaw(value.description)
        }
    }

    /// Appends `string` quoted and escaped. Strings without anything to escape (nearly all)
    /// are copied in one append.
    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            var escaped: [UInt8] = [UInt8(ascii: "\"")]
            escaped.reserveCapacity(utf8.count + 16)
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): escaped += [92, 34]
                case UInt8(ascii: "\\"): escaped += [92, 92]
                case 0x0A: escaped += [92, UInt8(ascii: "n")]
                case 0x0D: escaped += [92, UInt8(ascii: "r")]
                case 0x09: escaped += [92, UInt8(ascii: "t")]
                case 0..<0x20: escaped += [92, UInt8(ascii: "u"), 48, 48, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 15)]]
                default: escaped.append(byte)
                }
            }
            escaped.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: escaped)
        }
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, as `UUID.uuidString` but without its cost.
    func writeUUID(_ uuid: UUID) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of scratch
        withUnsafeMutableBytes(of: &text) { out in
            out[0] = UInt8(ascii: "\"")
            var position = 1
            withUnsafeBytes(of: uuid.uuid) { raw in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = Self.hexDigits.utf8Start[Int(raw[index] >> 4)]
                    out[position + 1] = Self.hexDigits.utf8Start[Int(raw[index] & 15)]
                    position += 2
                }
            }
            out[position] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0...position]))
        }
    }

    private static let hexDigits: StaticString = "0123456789ABCDEF"
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

}
