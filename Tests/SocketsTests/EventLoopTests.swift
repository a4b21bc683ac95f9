import Glibc
import Sockets
import Synchronization
import XCTest

/// The loop as an executor and a clock: work and tasks run on its thread, timers fire in
/// deadline order, handlers get a tick about once a second and a last call when it stops.
final class EventLoopTests: XCTestCase {
    func testExecuteRunsOnTheLoopThread() async throws {
        try await withRunningLoop { loop in
            XCTAssertFalse(loop.inEventLoop)
            XCTAssertNil(EventLoop.current)
            let (inLoop, isCurrent) = try await loop.run { (loop.inEventLoop, EventLoop.current === loop) }
            XCTAssertTrue(inLoop)
            XCTAssertTrue(isCurrent)
        }
    }

    func testTasksPreferringTheLoopRunOnIt() async throws {
        try await withRunningLoop { loop in
            let onLoop = await Task(executorPreference: loop) { () -> [Bool] in
                var seen = [loop.inEventLoop]
                await Task.yield()
                try? await Task.sleep(for: .milliseconds(5))
                seen.append(loop.inEventLoop)
                return seen
            }.value
            XCTAssertEqual(onLoop, [true, true], "a task with the loop as executor preference resumes on it")
        }
    }

    func testTimersFireAfterTheirDeadlineInOrder() async throws {
        try await withRunningLoop { loop in
            let fired = Mutex<[(String, ContinuousClock.Instant)]>([])
            let start = ContinuousClock.now
            try await loop.run {
                for (name, ms) in [("c", 90), ("a", 30), ("b", 60)] {
                    loop.schedule(at: start + .milliseconds(ms)) { fired.withLock { $0.append((name, .now)) } }
                }
            }
            let done = await eventually { fired.withLock { $0.count } == 3 }
            XCTAssertTrue(done)
            let events = fired.withLock { $0 }
            XCTAssertEqual(events.map(\.0), ["a", "b", "c"])
            XCTAssertGreaterThanOrEqual(events[0].1 - start, .milliseconds(30))
            XCTAssertLessThan(events[2].1 - start, .seconds(1), "a timer wakes the loop; it does not wait for the next tick")
        }
    }

    func testHandlersTickAndHearTheLoopStop() async throws {
        let pair = try SocketPair()
        defer { pair.closeBoth() }
        let log = HandlerLog()
        try await withRunningLoop { loop in
            try await loop.run { try loop.register(pair.left, handler: RecordingHandler(log: log)) }
            let ticked = await eventually(within: .seconds(3)) { log.tickCount >= 1 }
            XCTAssertTrue(ticked, "no tick within 3 s")
            XCTAssertFalse(log.sawLoopStopping)
        }
        XCTAssertTrue(log.sawLoopStopping, "handlers release what they hold when the loop stops")
    }

    func testWorkQueuedAfterTheLoopExitedIsRefused() async throws {
        let loop = try EventLoop(index: 0)
        let exited = Atomic<Bool>(false)
        try loop.start { exited.store(true, ordering: .releasing) }
        loop.stop()
        let stopped = await eventually { exited.load(ordering: .acquiring) }
        XCTAssertTrue(stopped)
        let ran = Atomic<Bool>(false)
        XCTAssertFalse(loop.execute { ran.store(true, ordering: .relaxed) })
        try await Task.sleep(for: .milliseconds(20))
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testWorkFromManyThreadsAllRuns() async throws {
        try await withRunningLoop { loop in
            let log = HandlerLog()  // its tick counter, counting work items here
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<250 { loop.execute { log.recordTick() } }
                    }
                }
            }
            let all = await eventually { log.tickCount == 2000 }
            XCTAssertTrue(all, "\(log.tickCount) of 2000")
        }
    }
}
