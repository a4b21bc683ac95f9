import AppTesting
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// One failure, one line: an error is logged once per request, by whoever knows the most about
/// it, and the access line records the status. Two lines per failure doubled the log volume
/// exactly when the log matters (a database outage).
final class ErrorLogTests: XCTestCase {
    func testDatabaseOutageIsLoggedOncePerRequest() async throws {
        let capture = LogCapture()
        var unreachable = try PostgresConfiguration(url: "postgres://til:til@127.0.0.1:1/til")
        unreachable.connectTimeout = .seconds(1)
        try await TestApp.run(database: unreachable, logger: capture.logger()) { down in
            let response = try await down.sendRequest(to: "/api/users", method: .get)
            XCTAssertEqual(response.status.code, 503)
            let id = try XCTUnwrap(response.headers["X-Request-ID"])
            let problems = capture.lines.filter { $0.level >= .warning && $0.metadata["request-id"] == id }
            XCTAssertEqual(problems.count, 1, problems.map(\.fullText).joined(separator: "\n"))
        }
    }

    /// An outage answers every request at once (the pool backs off reconnecting: one probe at a
    /// time) and logs about one line a second, not one per request.
    func testAnOutageIsAnsweredFastAndLoggedAtMostOnceASecond() async throws {
        let capture = LogCapture()
        var unreachable = try PostgresConfiguration(url: "postgres://til:til@127.0.0.1:1/til")
        unreachable.connectTimeout = .seconds(1)
        try await TestApp.run(database: unreachable, logger: capture.logger()) { down in
            let started = ContinuousClock.now
            for _ in 0..<30 {
                let response = try await down.sendRequest(to: "/api/acronyms", method: .get)
                XCTAssertEqual(response.status.code, 503)
                XCTAssertEqual(response.headers["Retry-After"], "1")
            }
            let elapsed = ContinuousClock.now - started
            XCTAssertLessThan(elapsed, .seconds(3), "no request waits out a connect of its own")
            let lines = capture.lines.filter { $0.message.hasPrefix("database") }
            let seconds = Int((elapsed / .seconds(1)).rounded(.up))
            XCTAssertGreaterThanOrEqual(lines.count, 1)
            XCTAssertLessThanOrEqual(lines.count, seconds + 1, lines.map(\.fullText).joined(separator: "\n"))
        }
    }
}
