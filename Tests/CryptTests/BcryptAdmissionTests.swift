@testable import Crypt
import Threads
import Glibc
import Synchronization
import XCTest

/// Admission control with real bcrypt work on a one-thread pool. The thread is held busy by a
/// gate job, so "waiting" is exact rather than a race against hashing speed.
final class BcryptAdmissionTests: XCTestCase {
    func testOneHashPastMaxQueuedIsRefusedAtOnceWithoutHashing() async throws {
        let pool = WorkerPool(threadCount: 1)
        let hasher = BcryptHasher(cost: 4, pool: pool, admission: .init(maxQueued: 3, maxWait: .seconds(60)))
        let gate = try await Gate.holding(pool)
        let queued = (0..<3).map { index in Task { try await hasher.hash("pw\(index)") } }
        try await waitUntil { pool.pendingCount == 3 }

        let clock = ContinuousClock()
        let refusedAfter = await clock.measure {
            await assertOverloaded { try await hasher.verify("pw0", created: BcryptTests.vectors[0].hash) }
        }
        XCTAssertLessThan(refusedAfter, .milliseconds(50), "refused at once, not after a wait")
        XCTAssertEqual(pool.pendingCount, 3, "the refused hash was never queued")

        gate.open()
        for (index, task) in queued.enumerated() {
            let hash = try await task.value
            let matches = try await hasher.verify("pw\(index)", created: hash)
            XCTAssertTrue(matches, "the admitted hashes all ran")
        }
    }

    func testAHashIsAdmittedWhileAThreadIsFreeEvenWithNoQueueAllowed() async throws {
        let pool = WorkerPool(threadCount: 1)
        let hasher = BcryptHasher(cost: 4, pool: pool, admission: .init(maxQueued: 0))
        let hash = try await hasher.hash("free thread")
        let matches = try await hasher.verify("free thread", created: hash)
        XCTAssertTrue(matches)

        let gate = try await Gate.holding(pool)
        await assertOverloaded { try await hasher.hash("no room") }
        gate.open()
    }

    func testAnEstimatedWaitOverMaxWaitIsRefused() async throws {
        let pool = WorkerPool(threadCount: 1)
        let hasher = BcryptHasher(cost: 6, pool: pool, admission: .init(maxQueued: 64, maxWait: .zero))
        // Before any job has run there is nothing to estimate from: only maxQueued applies.
        XCTAssertNil(pool.load.meanJobTime)
        for index in 0..<4 { _ = try await hasher.hash("warm-up \(index)") }
        let mean = try XCTUnwrap(pool.load.meanJobTime, "the real hashes set the mean job time")
        XCTAssertGreaterThan(mean, .microseconds(100), "a cost-6 hash is real work")

        let gate = try await Gate.holding(pool)
        let first = Task { try await hasher.hash("first in line") }      // queue empty: no wait
        try await waitUntil { pool.pendingCount == 1 }
        XCTAssertGreaterThan(pool.load.estimatedWait, .zero)
        await assertOverloaded(retryAfter: 1) { try await hasher.hash("second in line") }
        XCTAssertEqual(pool.pendingCount, 1)
        gate.open()
        let hash = try await first.value
        XCTAssertTrue(hash.hasPrefix("$2b$06$"))
    }

    func testEstimateIsQueueLengthTimesMeanOverThreads() {
        let load = WorkerPool.Load(queued: 6, running: 2, threadCount: 2, meanJobTime: .milliseconds(250))
        XCTAssertEqual(load.estimatedWait, .milliseconds(750))
        XCTAssertTrue(load.mustWait)
        let admission = BcryptHasher.Admission(maxQueued: 64, maxWait: .milliseconds(500))
        XCTAssertThrowsError(try admission.check(load)) {
            XCTAssertEqual($0 as? BcryptError, .overloaded(retryAfter: 1), "0.75 s rounds up to 1 s")
        }
        XCTAssertNoThrow(try BcryptHasher.Admission(maxQueued: 6, maxWait: .seconds(1)).check(
            .init(queued: 5, running: 2, threadCount: 2, meanJobTime: .milliseconds(250))))
        XCTAssertEqual(BcryptHasher.Admission.wholeSecondsRoundedUp(.milliseconds(2001)), 3)
        XCTAssertEqual(BcryptHasher.Admission.wholeSecondsRoundedUp(.seconds(2)), 2)
        XCTAssertEqual(BcryptHasher.Admission.wholeSecondsRoundedUp(.zero), 1)
        let defaults = BcryptHasher.Admission()
        XCTAssertEqual(defaults.maxQueued, 64)
        XCTAssertEqual(defaults.maxWait, .seconds(5))
    }

    func testACancelledQueuedHashFreesItsPlaceWithoutHashing() async throws {
        let pool = WorkerPool(threadCount: 1)
        let hasher = BcryptHasher(cost: 4, pool: pool, admission: .init(maxQueued: 1, maxWait: .seconds(60)))
        let gate = try await Gate.holding(pool)
        let cancelled = Task { try await hasher.hash("client went away") }
        try await waitUntil { pool.pendingCount == 1 }
        await assertOverloaded { try await hasher.hash("queue is full") }
        cancelled.cancel()
        gate.open()
        let result = await cancelled.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        try await waitUntil { pool.load.running == 0 && pool.pendingCount == 0 }
        let hash = try await hasher.hash("room again")
        XCTAssertTrue(hash.hasPrefix("$2b$04$"))
    }

    private func assertOverloaded(
        retryAfter expected: Int? = nil, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> some Any
    ) async {
        do {
            _ = try await body()
            XCTFail("expected .overloaded", file: file, line: line)
        } catch BcryptError.overloaded(let retryAfter) {
            XCTAssertGreaterThanOrEqual(retryAfter, 1, file: file, line: line)
            if let expected { XCTAssertEqual(retryAfter, expected, file: file, line: line) }
        } catch {
            XCTFail("expected .overloaded, got \(error)", file: file, line: line)
        }
    }

    /// Polls `condition` every millisecond for at most 10 s.
    private func waitUntil(file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("timed out", file: file, line: line) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// Holds a pool's only thread until opened, so jobs submitted meanwhile stay queued.
private final class Gate: Sendable {
    private let started = Atomic(false)
    private let isOpen = Atomic(false)

    static func holding(_ pool: WorkerPool) async throws -> Gate {
        let gate = Gate()
        Task { try await pool.run { gate.hold() } }
        for _ in 0..<10_000 where !gate.started.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(1))
        }
        return gate
    }

    func open() {
        isOpen.store(true, ordering: .sequentiallyConsistent)
    }

    private func hold() {
        started.store(true, ordering: .sequentiallyConsistent)
        // Bounded: a test that forgets to open the gate still ends, after 30 s.
        for _ in 0..<30_000 where !isOpen.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
    }
}
