import AppTesting
import Foundation
import Logging
import Web
import WebTesting
import XCTest

/// Issue 17, log injection: what a client sends (here a User-Agent) lands in log lines, and
/// must never read as a field or a line of its own. Every line `til-server` writes is one
/// logfmt record with every value quoted and escaped (README, Operations).
final class LogInjectionTests: XCTestCase {
    /// A real `til-server`, so the lines are the ones its own log handler writes to stderr.
    func testAUserAgentCannotForgeALogFieldOrLine() async throws {
        try await withTestApp { _ in }  // a migrated test database, as every AppTests case gets
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment())
        defer { if hasFailed { print("til-server output:\n\(server.output)") } }
        // A quote to close the value, fields of a success, U+2028 and NEL (line breaks to many
        // log readers; CR and LF never pass the HTTP parser), a backslash and a tab.
        let agent = #"Evil/1.0" event="login.succeeded" user-id="1 event=login.succeeded"#
            + "\u{2028}time=\"2030-01-01T00:00:00Z\" level=\"notice\" msg=\"audit login.succeeded\" event=\"login.succeeded\""
            + "\u{85}event=login.succeeded \\\" \t end"
        do {
            try await server.waitUntilHealthy()
            let refused = try await server.client.send(
                .post, "/api/users/login", headers: ["User-Agent": agent], auth: .basic("admin", "not-the-password"))
            XCTAssertEqual(refused.status.code, 401, refused.bodyString)
            let logged = await eventually(within: .seconds(10)) { server.output.contains("login.failed") }
            XCTAssertTrue(logged, "no audit line for the failed login")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()

        assertNoForgery(in: server.output, agent: agent)
    }

    /// In process, where any byte reaches the app (no HTTP parser: as behind a careless proxy),
    /// a raw line feed, a terminal escape and a C1 control in the User-Agent stay in its value.
    func testARawLineFeedInAUserAgentStaysInsideItsValue() async throws {
        let capture = LogfmtCapture()
        let agent = "Evil/1.0\n" + #"time="2030-01-01T00:00:00Z" level="notice" msg="audit login.succeeded" event="login.succeeded""#
            + "\r\n\u{1B}[2K\u{9B}1A \" event=\"login.succeeded"
        try await withTestApp(logger: capture.logger(level: .notice)) { app in
            let refused = try await app.client.login("admin", "not-the-password", headers: ["User-Agent": agent])
            XCTAssertEqual(refused.status.code, 401, refused.bodyString)
        }
        assertNoForgery(in: capture.text, agent: agent)
    }

    /// Every line of `output` is one whole logfmt record with each field once; the failed login
    /// is one of them, with `agent` whole in `user-agent`; no line reports a success.
    private func assertNoForgery(in output: String, agent: String, file: StaticString = #filePath, line: UInt = #line) {
        let records = LogfmtReader.records(output)
        XCTAssertFalse(records.isEmpty, file: file, line: line)
        for (index, record) in records.enumerated() {
            guard let record else {
                XCTFail("line \(index + 1) is not one whole logfmt record: a forged line or field", file: file, line: line)
                continue
            }
            XCTAssertEqual(Set(record.map(\.key)).count, record.count, "a field twice in line \(index + 1): \(record)", file: file, line: line)
        }
        let fields = records.compactMap { $0 }
        XCTAssertEqual(fields.filter { $0[field: "event"] == "login.succeeded" }.count, 0, "a forged success", file: file, line: line)
        let failed = fields.filter { $0[field: "event"] == "login.failed" }
        XCTAssertEqual(failed.count, 1, file: file, line: line)
        XCTAssertEqual(failed.first?[field: "user-agent"], agent, "the agent is logged whole, as one value", file: file, line: line)
        XCTAssertFalse(output.contains(#"event="login.succeeded""#), "the success field's own form appears", file: file, line: line)
    }
}
