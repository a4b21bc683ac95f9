import Sockets

/// Per-loop resources the connections of one event loop share: a single read buffer
/// (so an idle connection costs no buffer at all) and the `Date` header cache.
/// Confined to its loop's thread, like the connections that use it.
final class LoopContext {
    let loop: EventLoop
    let state: ServerState
    let readBuffer: UnsafeMutableRawBufferPointer
    var dates = HTTPDateCache()

    init(loop: EventLoop, state: ServerState) {
        self.loop = loop
        self.state = state
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
