import Synchronization
import Sockets
import XCTest

/// A `LoopBound` value made on its loop comes back to that loop's thread, and only there,
/// from whatever thread asks; once the loop exited, nothing runs.
final class LoopBoundTests: XCTestCase {
    /// Not `Sendable`: only a loop thread may touch it.
    final class Counter { var count = 0 }

    /// What the loop saw, readable from the test.
    final class Record: Sendable {
        let counts = Mutex<[Int]>([])
        let offLoop = Atomic<Bool>(false)
        let bound = Mutex<LoopBound<Counter>?>(nil)
    }

    func testTheValueIsUsedOnlyOnItsLoop() async throws {
        let record = Record()
        try await withRunningLoop { loop in
            loop.execute { record.bound.withLock { $0 = LoopBound(Counter(), loop: loop) } }
            let wrapped = await eventually { record.bound.withLock { $0 != nil } }
            XCTAssertTrue(wrapped)
            let counter = try XCTUnwrap(record.bound.withLock { $0 })
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {  // from the global pool's threads
                        counter.execute { value in
                            if !loop.inEventLoop { record.offLoop.store(true, ordering: .relaxed) }
                            value.count += 1
                            record.counts.withLock { $0.append(value.count) }
                        }
                    }
                }
            }
            let all = await eventually { record.counts.withLock { $0.count } == 20 }
            XCTAssertTrue(all)
        }
        XCTAssertFalse(record.offLoop.load(ordering: .relaxed))
        XCTAssertEqual(record.counts.withLock { $0 }, Array(1...20), "one value, changed one call at a time")
        let afterExit = record.bound.withLock { $0 }?.execute { _ in XCTFail("ran after the loop exited") }
        XCTAssertEqual(afterExit, false)
    }
}
