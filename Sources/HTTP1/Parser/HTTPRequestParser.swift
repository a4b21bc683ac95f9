/// An incremental HTTP/1.1 request parser: a pure value fed with bytes, which hands out
/// complete requests (head plus whole body) or a typed error that maps to a status.
///
/// ```swift
/// parser.append(bytes)
/// while let request = try parser.next() { ... }
/// ```
/// No I/O, no clocks, no Foundation: easy to unit-test and to fuzz (`make fuzz`).
public struct HTTPRequestParser: Sendable {
    private enum State: Sendable {
        case head(HeadScanner)
        case fixedBody(HTTPRequestHead, length: Int)
        case chunkedBody(HTTPRequestHead, ChunkedDecoder)
        case failed(HTTPParseError)
    }

    private let limits: HTTPServerLimits
    private var buffer: [UInt8] = []
    /// Start of the bytes not consumed yet.
    private var readIndex = 0
    private var state: State
    private var continuePending = false

    public init(limits: HTTPServerLimits = .init()) {
        self.limits = limits
        state = .head(HeadScanner(start: 0))
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// True when bytes of an unfinished request are buffered (a slow request, not an idle connection).
    public var hasPartialRequest: Bool {
        switch state {
        case .head(let scanner): scanner.hasStarted(bufferEnd: buffer.count)
        case .fixedBody, .chunkedBody: true
        case .failed: false
        }
    }

    /// True once per request when it asked for `100 Continue` and its body is still to come.
    public mutating func takeContinueSignal() -> Bool {
        defer { continuePending = false }
        return continuePending
    }

    /// The next complete request, or nil until more bytes arrive.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        do {
            let request = try advance()
            if request != nil { compact() }
            return request
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func advance() throws(HTTPParseError) -> HTTPRequest? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head(var scanner):
                let limits = limits
                let result = try buffer.withUnsafeBufferPointer { bytes throws(HTTPParseError) -> (Int, HTTPRequestHead)? in
                    guard let end = try scanner.scan(bytes, limits: limits) else { return nil }
                    return (end, try HeadParser.parse(bytes, lines: scanner.lines))
                }
                guard let (end, head) = result else {
                    state = .head(scanner)
                    return nil
                }
                readIndex = end
                switch try BodyFraming(head: head, limits: limits) {
                case .none:
                    state = .head(HeadScanner(start: readIndex))
                    return HTTPRequest(head: head)
                case .length(let length):
                    state = .fixedBody(head, length: length)
                    continuePending = head.expectsContinue && buffer.count - readIndex < length
                case .chunked:
                    state = .chunkedBody(head, ChunkedDecoder())
                    continuePending = head.expectsContinue && buffer.count == readIndex
                }
            case .fixedBody(let head, let length):
                guard buffer.count - readIndex >= length else { return nil }
                let body = Array(buffer[readIndex..<readIndex + length])
                readIndex += length
                state = .head(HeadScanner(start: readIndex))
                return HTTPRequest(head: head, body: body)
            case .chunkedBody(let head, var decoder):
                let limits = limits, start = readIndex
                let (index, done) = try buffer.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                    try decoder.decode(bytes, from: start, limits: limits)
                }
                readIndex = index
                guard done else {
                    state = .chunkedBody(head, decoder)
                    return nil
                }
                state = .head(HeadScanner(start: readIndex))
                return HTTPRequest(head: head, body: decoder.body)
            }
        }
    }

    /// Drops consumed bytes: all of them when nothing else is buffered (the common case, no
    /// copy), or the consumed front once it grows large.
    private mutating func compact() {
        guard case .head(var scanner) = state else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 16 * 1024)
        } else if readIndex >= 4096 {
            buffer.removeFirst(readIndex)
        } else {
            return
        }
        scanner.rebase(by: readIndex)
        state = .head(scanner)
        readIndex = 0
    }
}
