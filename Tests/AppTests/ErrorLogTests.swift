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
}
