import Sockets

/// A connection's unsent response bytes: responses are appended whole and written as far as
/// the socket takes them. The sent front is dropped before more is appended, so a slow
/// client's half-sent response is never held twice.
struct OutputBuffer {
    /// How a write attempt ended.
    enum WriteResult {
        /// Everything is sent.
        case sent
        /// The socket's buffer is full; the rest waits for the next writable event.
        case wouldBlock
        /// The peer is gone.
        case closed
    }

    private var bytes: [UInt8] = []
    private var offset = 0

    /// Bytes not yet taken by the kernel.
    var pending: Int { bytes.count - offset }
    var isEmpty: Bool { offset == bytes.count }

    /// Appends through `write` (a `ResponseWriter` call).
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        if offset > 0 {
            bytes.removeFirst(offset)
            offset = 0
        }
        write(&bytes)
    }

    /// Writes to `transport` until everything is sent or the socket stops taking bytes; how many it took.
    /// The unsent front stays first in the buffer, as a TLS write retried after "would block" needs.
    mutating func write(to transport: Transport) -> (written: Int, result: WriteResult) {
        var written = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { transport.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            switch result {
            case .bytes(let count):
                offset += count
                written += count
            case .wouldBlock:
                return (written, .wouldBlock)
            case .closed:
                return (written, .closed)
            }
        }
        // All sent: start again from an empty buffer (keeping a modest one for the next response).
        bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
        offset = 0
        return (written, .sent)
    }

    /// Drops everything (the connection closed).
    mutating func removeAll() {
        bytes = []
        offset = 0
    }
}
