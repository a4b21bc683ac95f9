import Sockets

/// Per-loop resources the connections of one event loop share: a single read buffer
/// (so an idle connection costs no buffer at all), the `Date` header cache, and the TLS
/// context new connections get their sessions from (nil: plain HTTP).
/// Confined to its loop's thread, like the connections that use it.
final class LoopContext {
    let loop: EventLoop
    let state: ServerState
    let tls: TLSContext?
    let readBuffer: UnsafeMutableRawBufferPointer
    var dates = HTTPDateCache()

    init(loop: EventLoop, state: ServerState, tls: TLSContext?) {
        self.loop = loop
        self.state = state
        self.tls = tls
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
