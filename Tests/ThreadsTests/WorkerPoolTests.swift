import Threads
import Glibc
import Synchronization
import XCTest

final class WorkerPoolTests: XCTestCase {
    func testManyJobsRunAtMostThreadCountAtATime() async throws {
        let pool = WorkerPool(threadCount: 2)
        let gauge = Gauge()
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await pool.run {
                        gauge.enter()
                        defer { gauge.leave() }
                        usleep(2_000)
                        return index
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sum, (0..<40).reduce(0, +), "every job ran once and returned its value")
        XCTAssertEqual(gauge.peak, 2, "both threads were used, and never more")
        XCTAssertEqual(pool.pendingCount, 0)
    }

    func testErrorsPropagate() async {
        struct Failure: Error, Equatable { let code: Int }
        let pool = WorkerPool(threadCount: 1)
        do {
            _ = try await pool.run { () throws -> Int in throw Failure(code: 7) }
            XCTFail("expected the job's error")
        } catch {
            XCTAssertEqual(error as? Failure, Failure(code: 7))
        }
        let after = try? await pool.run { 42 }
        XCTAssertEqual(after, 42, "a failed job does not take a thread down")
    }

    func testQueuedJobOfACancelledTaskIsDropped() async throws {
        let pool = WorkerPool(threadCount: 1)
        let started = Atomic(false), released = Atomic(false), ran = Atomic(false)
        let blocker = Task {
            try await pool.run {
                started.store(true, ordering: .sequentiallyConsistent)
                while !released.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
            }
        }
        while !started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(1)) }
        let queued = Task { try await pool.run { ran.store(true, ordering: .relaxed) } }
        while pool.pendingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        queued.cancel()
        released.store(true, ordering: .sequentiallyConsistent)
        try await blocker.value
        do {
            try await queued.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testAlreadyCancelledTaskQueuesNothing() async {
        let pool = WorkerPool(threadCount: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run { 1 }
        }
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
    }

    func testSharedPoolHasAThreadPerCore() {
        XCTAssertEqual(WorkerPool.shared.threadCount, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        XCTAssertEqual(WorkerPool(threadCount: 0).threadCount, 1)
    }

    func testJobsStartInSubmissionOrder() async throws {
        let pool = WorkerPool(threadCount: 1)
        let started = Atomic(false), released = Atomic(false)
        let order = Recorder()
        let blocker = Task {
            try await pool.run {
                started.store(true, ordering: .sequentiallyConsistent)
                while !released.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
            }
        }
        while !started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(1)) }
        var jobs: [Task<Void, any Error>] = []
        for index in 0..<20 {
            jobs.append(Task { try await pool.run { order.append(index) } })
            while pool.pendingCount < index + 1 { try await Task.sleep(for: .milliseconds(1)) }  // queued in this order
        }
        released.store(true, ordering: .sequentiallyConsistent)
        try await blocker.value
        for job in jobs { try await job.value }
        XCTAssertEqual(order.values, Array(0..<20))
    }
}

/// Counts jobs running at once and remembers the most.
private final class Gauge: Sendable {
    private let state = Mutex((current: 0, peak: 0))

    func enter() {
        state.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) }
    }

    func leave() {
        state.withLock { $0.current -= 1 }
    }

    var peak: Int { state.withLock { $0.peak } }
}

/// Remembers the order in which jobs ran.
private final class Recorder: Sendable {
    private let state = Mutex<[Int]>([])

    func append(_ value: Int) {
        state.withLock { $0.append(value) }
    }

    var values: [Int] { state.withLock { $0 } }
}
