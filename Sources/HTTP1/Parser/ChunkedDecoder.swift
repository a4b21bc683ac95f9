/// Decodes a `Transfer-Encoding: chunked` body from the buffered bytes (RFC 9112 §7.1):
/// hex sizes with optional extensions, data, CRLF after each chunk, then trailer fields,
/// which are read and discarded under the same limits as the head.
///
/// Framing costs are bounded as well as the decoded body: every raw byte of the body counts
/// against `HTTPServerLimits.maxChunkedBodyRawBytes` (padded chunk lines around one-byte
/// chunks would otherwise buffer far more than `maxBodyBytes`), and a line arriving in pieces
/// is scanned once, from where the previous read stopped.
struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(count: Int, bytes: Int)
    }

    private var state = State.size
    /// How far the current, incomplete line was already scanned (from the index `decode` was given).
    private var lineScanned = 0
    /// Raw bytes of the body consumed so far, framing included.
    private var consumed = 0
    private(set) var body: [UInt8] = []

    /// Consumes what it can from `bytes[index...]`; returns the new index and whether the body is complete.
    mutating func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, limits: HTTPServerLimits
    ) throws(HTTPParseError) -> (index: Int, done: Bool) {
        let start = index
        var index = index
        defer { consumed += index - start }
        while true {
            // Checked after every step that consumed bytes (a partial line is capped by its own limit).
            guard consumed + (index - start) <= limits.maxChunkedBodyRawBytes else { throw .contentTooLarge }
            switch state {
            case .size:
                let maxLength = Self.maxSizeDigits + Self.maxSizeWhitespace + limits.maxChunkExtensionBytes
                guard let end = try lineEnd(bytes, from: index, maxLength: maxLength) else { return (index, false) }
                let size = try Self.chunkSize(bytes, index..<end, limits: limits)
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
                if length == 0 {
                    guard consumed + (index - start) <= limits.maxChunkedBodyRawBytes else { throw .contentTooLarge }
                    return (index, true)
                }
                guard count + 1 <= limits.maxHeaderCount, total + length <= limits.maxHeaderBytes else {
                    throw .headerFieldsTooLarge
                }
                state = .trailers(count: count + 1, bytes: total + length)
            }
        }
    }

    /// Longest chunk size accepted (15 hex digits, below `Int.max`).
    private static let maxSizeDigits = 15
    /// Optional whitespace allowed between the size and its extensions or the line's end.
    private static let maxSizeWhitespace = 16

    /// The index of the CR of the line's CRLF, nil if not yet buffered (remembering how far it
    /// scanned); rejects bare CR/LF, control characters and overlong lines.
    private mutating func lineEnd(
        _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, maxLength: Int
    ) throws(HTTPParseError) -> Int? {
        var cursor = index + lineScanned
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == 0x0D {
                guard cursor + 1 < bytes.count else { break }
                guard bytes[cursor + 1] == 0x0A else { throw .badRequest("Bare CR in chunked body.") }
                lineScanned = 0
                return cursor
            }
            if byte == 0x0A { throw .badRequest("Bare LF in chunked body.") }
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { throw .badRequest("Control character in chunk line.") }
            cursor += 1
            if cursor - index > maxLength { throw .badRequest("Chunk line too long.") }
        }
        lineScanned = cursor - index
        return nil
    }

    /// `1*HEXDIG *WSP [ ";" extensions ]`: hex digits, optional whitespace, then either the
    /// line's end or `;` and extensions (ignored, at most `maxChunkExtensionBytes`).
    private static func chunkSize(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, limits: HTTPServerLimits
    ) throws(HTTPParseError) -> Int {
        var size = 0
        var cursor = line.lowerBound
        while cursor < line.upperBound, let value = hexValue(bytes[cursor]) {
            guard cursor - line.lowerBound < maxSizeDigits else { throw .badRequest("Chunk size too large.") }
            size = size << 4 | value
            cursor += 1
        }
        guard cursor > line.lowerBound else { throw .badRequest("Invalid chunk size.") }
        while cursor < line.upperBound, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
        guard cursor < line.upperBound else { return size }
        guard bytes[cursor] == UInt8(ascii: ";") else { throw .badRequest("Invalid chunk size.") }
        guard line.upperBound - cursor <= limits.maxChunkExtensionBytes else { throw .badRequest("Chunk extension too long.") }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
