import AppTesting
import Foundation
import Glibc
import MailTesting
import Postgres
import WebTesting
import XCTest
@testable import App

/// The outbox across real `til-server` processes over one database: a process killed with
/// SIGKILL in the middle of an SMTP conversation loses nothing (another sends the message,
/// same Message-ID, once its lease ends), and two processes sending together never send one
/// message twice.
final class MailAcrossProcessesTests: XCTestCase {
    private var servers: [ServerProcess] = []

    override func tearDown() async throws {
        await servers.stopAll(showingOutputIf: hasFailed)
        servers = []
    }

    private func startServer(_ sink: MailSink, timeout: Int = 5) async throws -> ServerProcess {
        let server = try ServerProcess(environment: try ServerProcess.testEnvironment(
            MailTestSupport.settings(sink, ["SMTP_TIMEOUT": "\(timeout)", "LOG_LEVEL": "notice"])))
        servers.append(server)
        try await server.waitUntilHealthy()
        return server
    }

    func testAMessageSurvivesAServerKilledWhileSendingIt() async throws {
        try await withTestApp { app in
            let id = try await MailTestSupport.queue(MailTestSupport.mail(token: "survivor"), on: app.til.db)
            let stuck = try MailTestSupport.sink(self)
            stuck.answerOtherwise(.hang)
            let first = try await startServer(stuck, timeout: 1)
            let attempted = try await stuck.waitForAttempts(count: 1)
            kill(first.process.processIdentifier, SIGKILL)
            _ = await first.waitForExit()
            XCTAssertTrue(stuck.messages.isEmpty, "killed before the relay's 250")
            let left = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(left.map(\.id), [id], "the row outlives the process")
            XCTAssertEqual(left.first?.claimed, true, "under the dead process's lease")

            let relay = try MailTestSupport.sink(self)
            _ = try await startServer(relay, timeout: 1)
            let delivered = try await relay.waitForMessages(count: 1, timeout: .seconds(30))
            XCTAssertEqual(delivered[0].parsed.header("Message-ID"), "<\(id.uuidString.lowercased())@til.example>")
            XCTAssertEqual(delivered[0].data, attempted[0].data, "the same message, byte for byte: a retry is recognisable")
            XCTAssertTrue(try XCTUnwrap(delivered[0].parsed.text).contains("token=survivor"))
            try await waitForEmptyOutbox(app.til.db)
        }
    }

    func testSIGTERMStopsASendUnderWayAndHandsItsMessageBack() async throws {
        try await withTestApp { app in
            let id = try await MailTestSupport.queue(MailTestSupport.mail(), on: app.til.db)
            let stuck = try MailTestSupport.sink(self)
            stuck.answerOtherwise(.hang)
            let server = try await startServer(stuck, timeout: 60)
            _ = try await stuck.waitForAttempts(count: 1)
            let signalled = ContinuousClock.now
            server.process.terminate()
            let status = await server.waitForExit(timeout: .seconds(15))
            XCTAssertEqual(status, 0)
            XCTAssertLessThan(ContinuousClock.now - signalled, .seconds(5), "not the relay's 60 s")
            let rows = try await MailTestSupport.rows(on: app.til.db)
            XCTAssertEqual(rows.map(\.id), [id])
            XCTAssertEqual(rows.map(\.claimed), [false], "handed back at shutdown: the next process sends it at once")
            XCTAssertEqual(rows.map(\.attempts), [0], "a shutdown is not the message's failure")
        }
    }

    func testTwoProcessesSendEachMessageExactlyOnce() async throws {
        try await withTestApp { app in
            let sink = try MailTestSupport.sink(self)
            _ = try await startServer(sink)
            _ = try await startServer(sink)
            var expected: Set<String> = []
            for index in 0..<40 {
                let id = try await MailTestSupport.queue(MailTestSupport.mail(to: "user\(index)@example.com"), on: app.til.db)
                expected.insert("<\(id.uuidString.lowercased())@til.example>")
            }
            _ = try await sink.waitForMessages(count: 40, timeout: .seconds(60))
            try await waitForEmptyOutbox(app.til.db)
            let received = sink.attempts.compactMap { $0.parsed.header("Message-ID") }
            XCTAssertEqual(received.count, 40, "no message twice")
            XCTAssertEqual(Set(received), expected)
            let senders = servers.map { $0.output.components(separatedBy: "event=\"mail.sent\"").count - 1 }
            print("messages sent by each process:", senders)
            XCTAssertEqual(senders.reduce(0, +), 40, "each process's audit log holds what it sent")
        }
    }

    /// Waits (at most 30 s) until the outbox is empty: once it is, no sender holds a row, so
    /// nothing more can arrive.
    private func waitForEmptyOutbox(_ db: PostgresClient) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !MailTestSupport.rows(on: db).isEmpty {
            guard ContinuousClock.now < deadline else { return XCTFail("the outbox is not empty") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
