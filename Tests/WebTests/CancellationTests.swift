import Web
import WebTesting
import XCTest

/// A handler whose client has gone is cancelled, so it stops before expensive work.
final class CancellationTests: XCTestCase {
    func testClientClosingMidRequestCancelsTheHandler() async throws {
        let events = EventLog()
        let app = makeApp()
        app.post("api", "users", "login") { _ -> String in
            events.record("started")
            do {
                try await Task.sleep(for: .seconds(30))  // stands in for the bcrypt check
            } catch {
                events.record(Task.isCancelled && error is CancellationError ? "cancelled" : "failed: \(error)")
                throw error
            }
            events.record("finished")
            return "token"
        }
        try await app.test(.live) { _ in
            let connection = try RawConnection(port: app.boundPort)
            try connection.write("POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            let started = await eventually { events.contains("started") }
            XCTAssertTrue(started)
            let closedAt = ContinuousClock.now
            connection.close()
            let cancelled = await eventually(within: .seconds(2)) { events.contains("cancelled") }
            XCTAssertTrue(cancelled, "\(events.all)")
            XCTAssertLessThan(ContinuousClock.now - closedAt, .seconds(2))
        }
        XCTAssertEqual(events.all, ["started", "cancelled"])
    }
}
