import Glibc
import Sockets
import XCTest

/// What the loop reports for a descriptor, over a socketpair: readable when the peer writes,
/// writable when there is room, hang-up when the peer closes; edge- and level-triggered.
final class ReadinessTests: XCTestCase {
    private func register(_ fd: Int32, on loop: EventLoop, levelTriggered: Bool = false) async throws -> HandlerLog {
        let log = HandlerLog()
        try await loop.run {
            let handler = RecordingHandler(log: log)
            if levelTriggered {
                try loop.register(fd, readable: true, writable: false, handler: handler)
            } else {
                try loop.register(fd, handler: handler)
            }
        }
        return log
    }

    func testWritableAtOnceThenReadableWhenThePeerWrites() async throws {
        let pair = try SocketPair()
        defer { pair.closeBoth() }
        try await withRunningLoop { loop in
            let log = try await register(pair.left, on: loop)
            let writable = await eventually { log.saw(.writable) }
            XCTAssertTrue(writable, "an edge-triggered registration reports the room to write at once")
            XCTAssertFalse(log.saw(.readable))

            XCTAssertEqual("ping".withCString { Socket.write(pair.right, UnsafeRawBufferPointer(start: $0, count: 4)) }, .bytes(4))
            let readable = await eventually { log.saw(.readable) }
            XCTAssertTrue(readable)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            XCTAssertEqual(Socket.read(pair.left, into: buffer), .bytes(4))
            XCTAssertEqual(String(decoding: buffer[..<4], as: UTF8.self), "ping")
            XCTAssertEqual(Socket.read(pair.left, into: buffer), .wouldBlock)
            try await loop.run { loop.deregister(pair.left) }
        }
    }

    func testPeerClosingIsAHangUpAndReadsSayClosed() async throws {
        var pair = try SocketPair()
        defer { pair.closeBoth() }
        try await withRunningLoop { loop in
            let log = try await register(pair.left, on: loop)
            close(pair.right)
            pair.right = -1
            let hungUp = await eventually { log.saw(.hangUp) }
            XCTAssertTrue(hungUp, "\(log.readiness)")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            XCTAssertEqual(Socket.read(pair.left, into: buffer), .closed)
            XCTAssertEqual(Socket.write(pair.left, UnsafeRawBufferPointer(buffer)), .closed, "no SIGPIPE, just closed")
            let left = pair.left
            try await loop.run { loop.deregister(left) }
        }
    }

    /// Edge-triggered: one event per arrival, however much is left unread. Level-triggered:
    /// reported on every turn until read, and silent once the interest is dropped.
    func testEdgeAndLevelTriggering() async throws {
        let edge = try SocketPair(), level = try SocketPair()
        defer { edge.closeBoth(); level.closeBoth() }
        try await withRunningLoop { loop in
            let edgeLog = try await register(edge.left, on: loop)
            let levelLog = try await register(level.left, on: loop, levelTriggered: true)
            for fd in [edge.right, level.right] {
                XCTAssertEqual("x".withCString { Socket.write(fd, UnsafeRawBufferPointer(start: $0, count: 1)) }, .bytes(1))
            }
            let repeated = await eventually { levelLog.readiness.filter { $0.contains(.readable) }.count >= 3 }
            XCTAssertTrue(repeated, "level-triggered readiness repeats while unread")
            XCTAssertEqual(edgeLog.readiness.filter { $0.contains(.readable) }.count, 1)

            try await loop.run { try loop.setInterest(level.left, readable: false, writable: false) }
            try await Task.sleep(for: .milliseconds(50))
            let count = levelLog.readiness.count
            try await Task.sleep(for: .milliseconds(100))
            XCTAssertEqual(levelLog.readiness.count, count, "no events without interest")
            try await loop.run {
                loop.deregister(edge.left)
                loop.deregister(level.left)
            }
        }
    }

    func testDeregisteredDescriptorIsNoLongerReported() async throws {
        let pair = try SocketPair()
        defer { pair.closeBoth() }
        try await withRunningLoop { loop in
            let log = try await register(pair.left, on: loop)
            _ = await eventually { log.saw(.writable) }
            let registered = try await loop.run { () -> Int in
                loop.deregister(pair.left)
                var count = 0
                loop.forEachHandler { _ in count += 1 }
                return count
            }
            XCTAssertEqual(registered, 0)
            let before = log.readiness.count
            XCTAssertEqual("x".withCString { Socket.write(pair.right, UnsafeRawBufferPointer(start: $0, count: 1)) }, .bytes(1))
            try await Task.sleep(for: .milliseconds(100))
            XCTAssertEqual(log.readiness.count, before)
        }
    }
}
