/// Finds the end of a request head in the buffered bytes, line by line, enforcing the limits
/// and the line-ending rules while bytes arrive — so an oversized or malformed head is refused
/// as soon as it is seen, and a long head arriving in pieces is never rescanned from the start.
struct HeadScanner: Sendable {
    /// A line of the head, as a range of buffer indices (CRLF excluded).
    typealias Line = Range<Int>

    private(set) var lines: [Line] = []
    private var scanIndex: Int
    private var lineStart: Int
    private var skippedEmptyLines = 0
    private var headerBytes = 0

    init(start: Int) {
        scanIndex = start
        lineStart = start
        lines.reserveCapacity(16)  // one allocation for a typical head, not one per doubling
    }

    /// True once some byte of a request (not just leading empty lines) was seen.
    func hasStarted(bufferEnd: Int) -> Bool { !lines.isEmpty || bufferEnd > lineStart }

    /// Scans new bytes; returns the index just past the head's final CRLF once it is complete.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPServerLimits) throws(HTTPParseError) -> Int? {
        while scanIndex < bytes.count {
            let byte = bytes[scanIndex]
            if byte == 0x0A {
                guard scanIndex > lineStart, bytes[scanIndex - 1] == 0x0D else {
                    throw .badRequest("Bare LF in request head.")
                }
                let line = lineStart..<(scanIndex - 1)
                scanIndex += 1
                lineStart = scanIndex
                if line.isEmpty {
                    if lines.isEmpty {
                        skippedEmptyLines += 1
                        guard skippedEmptyLines <= 8 else { throw .badRequest("Too many empty lines before the request line.") }
                        continue
                    }
                    return scanIndex
                }
                if !lines.isEmpty {
                    guard lines.count <= limits.maxHeaderCount else { throw .headerFieldsTooLarge }
                }
                lines.append(line)
                continue
            }
            if scanIndex > lineStart, bytes[scanIndex - 1] == 0x0D {
                throw .badRequest("Bare CR in request head.")
            }
            if byte < 0x20 && byte != 0x09 && byte != 0x0D || byte == 0x7F {
                throw .badRequest("Control character in request head.")
            }
            scanIndex += 1
            if byte == 0x0D { continue }  // the line's end: not part of its length
            let lineLength = scanIndex - lineStart
            if lines.isEmpty {
                guard lineLength <= limits.maxRequestLineBytes else { throw .uriTooLong }
            } else {
                headerBytes += 1
                guard headerBytes <= limits.maxHeaderBytes else { throw .headerFieldsTooLarge }
            }
        }
        if lines.isEmpty, scanIndex - lineStart > limits.maxRequestLineBytes { throw .uriTooLong }
        return nil
    }

    /// Moves every index back by `offset` after the buffer dropped its consumed front.
    mutating func rebase(by offset: Int) {
        scanIndex -= offset
        lineStart -= offset
        lines = lines.map { ($0.lowerBound - offset)..<($0.upperBound - offset) }
    }
}
