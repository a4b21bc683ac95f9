import CLinux

/// What epoll reported for a descriptor.
public struct Readiness: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = Readiness(rawValue: clinux_EPOLLIN)
    public static let writable = Readiness(rawValue: clinux_EPOLLOUT)
    /// The peer shut down its side or the socket failed: read to find out, then close.
    public static let hangUp = Readiness(rawValue: clinux_EPOLLHUP | clinux_EPOLLRDHUP | clinux_EPOLLERR)
}

/// A loop-confined owner of a registered descriptor. The loop calls it only on its own thread.
public protocol EventHandler: AnyObject {
    func handle(_ readiness: Readiness)
    /// Called about once a second, for timeouts.
    func tick(now: ContinuousClock.Instant)
    /// The loop is stopping and drops its handlers after this call: release what the
    /// descriptor holds (a database session, say) while still on the loop thread.
    func loopStopping()
}

extension EventHandler {
    public func loopStopping() {}
}
