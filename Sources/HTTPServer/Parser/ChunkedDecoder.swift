/// Decodes a `Transfer-Encoding: chunked` body from the buffered bytes (RFC 9112 §7.1):
/// hex sizes with optional extensions, data, CRLF after each chunk, then trailer fields,
/// which are read and discarded under the same limits as the head.
struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(count: Int, bytes: Int)
    }

    private var state = State.size
    private(set) var body: [UInt8] = []

    /// Consumes what it can from `bytes[index...]`; returns the new index and whether the body is complete.
    mutating func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, limits: HTTPServerLimits
    ) throws(HTTPParseError) -> (index: Int, done: Bool) {
        var index = index
        while true {
            switch state {
            case .size:
                guard let end = try lineEnd(bytes, from: index, maxLength: 1024) else { return (index, false) }
                let size = try chunkSize(bytes, index..<end)
                index = end + 2
                if size == 0 {
                    state = .trailers(count: 0, bytes: 0)
                } else {
                    guard body.count + size <= limits.maxBodyBytes else { throw .contentTooLarge }
                    state = .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, bytes.count - index)
                guard available > 0 else { return (index, false) }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + available]))
                index += available
                state = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard bytes.count - index >= 2 else { return (index, false) }
                guard bytes[index] == 0x0D, bytes[index + 1] == 0x0A else { throw .badRequest("Missing CRLF after chunk data.") }
                index += 2
                state = .size
            case .trailers(let count, let total):
                guard let end = try lineEnd(bytes, from: index, maxLength: limits.maxHeaderBytes) else { return (index, false) }
                let length = end - index
                index = end + 2
                if length == 0 { return (index, true) }
                guard count + 1 <= limits.maxHeaderCount, total + length <= limits.maxHeaderBytes else {
                    throw .headerFieldsTooLarge
                }
                state = .trailers(count: count + 1, bytes: total + length)
            }
        }
    }

    /// The index of the CR of the next CRLF, nil if not yet buffered; rejects bare CR/LF and overlong lines.
    private func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, maxLength: Int) throws(HTTPParseError) -> Int? {
        var cursor = index
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == 0x0D {
                guard cursor + 1 < bytes.count else { return nil }
                guard bytes[cursor + 1] == 0x0A else { throw .badRequest("Bare CR in chunked body.") }
                return cursor
            }
            if byte == 0x0A { throw .badRequest("Bare LF in chunked body.") }
            if byte < 0x20 && byte != 0x09 { throw .badRequest("Control character in chunk line.") }
            cursor += 1
            if cursor - index > maxLength { throw .badRequest("Chunk line too long.") }
        }
        return nil
    }

    /// Hex digits, then optionally `;extension` (ignored).
    private func chunkSize(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        for index in line {
            let byte = bytes[index]
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A") + 10)
            case UInt8(ascii: ";"), UInt8(ascii: " "), 0x09:
                guard digits > 0 else { throw .badRequest("Invalid chunk size.") }
                return size
            default:
                throw .badRequest("Invalid chunk size.")
            }
            digits += 1
            guard digits <= 15 else { throw .badRequest("Chunk size too large.") }
            size = size << 4 | value
        }
        guard digits > 0 else { throw .badRequest("Invalid chunk size.") }
        return size
    }
}
