import Foundation

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
}

/// The byte buffer plus the stack of open containers.
final class JSONSink {
    var bytes: [UInt8] = []
    /// Open containers: their id, closing byte, and whether they have an element yet.
    private var open: [(id: Int, close: UInt8, hasElement: Bool)] = []
    private var nextID = 0

    init() { bytes.reserveCapacity(1024) }

    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let uuid as UUID: writeUUID(uuid)
        case let string as String: writeString(string)
        case let date as Date: try writeDouble(date.timeIntervalSinceReferenceDate)
        case let data as Data: writeString(data.base64EncodedString())
        case let url as URL: writeString(url.absoluteString)
        default:
            let depth = open.count
            try value.encode(to: JSONStreamEncoderImpl(sink: self))
            while open.count > depth { bytes.append(open.removeLast().close) }
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

    func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, as `UUID.uuidString` but without its cost.
    func writeUUID(_ uuid: UUID) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 15)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
}
