import Glibc
import Sockets
import Synchronization
import XCTest

/// Runs `body` with a started `EventLoop` and stops it afterwards, waiting until its thread
/// has exited (so no test leaves a loop thread behind).
func withRunningLoop(_ body: (EventLoop) async throws -> Void) async throws {
    let loop = try EventLoop(index: 0)
    let exited = Atomic<Bool>(false)
    try loop.start { exited.store(true, ordering: .releasing) }
    do {
        try await body(loop)
    } catch {
        loop.stop()
        _ = await eventually { exited.load(ordering: .acquiring) }
        throw error
    }
    loop.stop()
    let stopped = await eventually { exited.load(ordering: .acquiring) }
    XCTAssertTrue(stopped, "the loop thread did not exit")
}

/// Polls `condition` every 5 ms until it holds or `timeout` passes; whether it held.
func eventually(within timeout: Duration = .seconds(3), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// What a `RecordingHandler` saw, readable from the test's thread.
final class HandlerLog: Sendable {
    private let events = Mutex<[Readiness]>([])
    private let ticks = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    var readiness: [Readiness] { events.withLock { $0 } }
    var tickCount: Int { ticks.load(ordering: .relaxed) }
    var sawLoopStopping: Bool { stopping.load(ordering: .relaxed) }

    func record(_ readiness: Readiness) { events.withLock { $0.append(readiness) } }
    func recordTick() { ticks.add(1, ordering: .relaxed) }
    func recordLoopStopping() { stopping.store(true, ordering: .relaxed) }

    /// True once some event had any of `readiness` (`.hangUp` stands for three epoll bits).
    func saw(_ readiness: Readiness) -> Bool { self.readiness.contains { !$0.isDisjoint(with: readiness) } }
}

/// An event handler that only records what the loop tells it (created on the loop thread).
final class RecordingHandler: EventHandler {
    let log: HandlerLog
    init(log: HandlerLog) { self.log = log }

    func handle(_ readiness: Readiness) { log.record(readiness) }
    func tick(now: ContinuousClock.Instant) { log.recordTick() }
    func loopStopping() { log.recordLoopStopping() }
}

/// Two connected, non-blocking stream sockets, without TCP (a Unix-domain `socketpair`).
struct SocketPair {
    var left: Int32
    var right: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw SystemError("socketpair") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        left = fds[0]
        right = fds[1]
    }

    func closeBoth() {
        if left >= 0 { close(left) }
        if right >= 0 { close(right) }
    }
}

extension EventLoop {
    /// Runs `work` on the loop and waits for its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = execute { continuation.resume(with: Result { try work() }) }
            if !accepted { continuation.resume(throwing: SystemError("execute", errno: ESHUTDOWN)) }
        }
    }
}
