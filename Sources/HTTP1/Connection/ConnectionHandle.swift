import Sockets

/// Carries a connection into the handler task that resumes on its loop.
///
/// `@unchecked Sendable` is sound because `connection` is only dereferenced inside
/// `loop.execute { }`, which runs on the connection's own loop thread.
struct ConnectionHandle: @unchecked Sendable {
    let connection: HTTPConnection
    let loop: EventLoop
}
