/// A value that belongs to one event loop's thread, carried through `Sendable` code (a
/// request handler's task) back to that loop — the one way a loop-confined object crosses
/// threads, instead of a `@unchecked Sendable` wrapper per use.
///
/// `@unchecked Sendable` is sound because the value is only ever touched on `loop`'s thread:
/// it is wrapped there (`init` checks) and unwrapped only by `execute` and `withValue`, whose
/// bodies run on that thread. Other threads only move the reference (atomic reference
/// counting); a value that must be torn down on its loop stays registered there until then.
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

    /// Runs `body` with the value on its loop's thread from async code: directly when the
    /// caller is there (the usual case), else with the loop as the task's executor
    /// preference, so `body` and everything it awaits runs there.
    public func withValue<T: Sendable>(_ body: (Value) async throws -> T) async throws -> T {
        if loop.inEventLoop { return try await body(value) }
        return try await withTaskExecutorPreference(loop) { try await body(value) }
    }
}
