/// A value that belongs to one event loop's thread, carried through `Sendable` code (a
/// request handler's task) back to that loop — the one way a loop-confined object crosses
/// threads, instead of a `@unchecked Sendable` wrapper per use.
///
/// `@unchecked Sendable` is sound because the value is only ever touched on `loop`'s thread:
/// it is wrapped there (`init` checks) and unwrapped only by `execute`, whose body runs on
/// that thread. Other threads only move the reference (atomic reference counting).
public struct LoopBound<Value>: @unchecked Sendable {
    public let loop: EventLoop
    private let value: Value

    /// Wraps `value`; call on `loop`'s thread.
    public init(_ value: Value, loop: EventLoop) {
        precondition(loop.inEventLoop, "a LoopBound is made on its loop's thread")
        self.value = value
        self.loop = loop
    }

    /// Runs `body` with the value on its loop's thread: inline when already there, else soon.
    /// False, and `body` never runs, once the loop exited.
    @discardableResult
    public func execute(_ body: @escaping @Sendable (Value) -> Void) -> Bool {
        loop.execute { body(value) }
    }
}
