import App
import AppTesting
import Crypt
import Foundation
import Logging
import Web
import WebTesting
import XCTest

/// The audit trail: one `notice` line per auth event, and never a secret in any line.
final class AuditLogTests: XCTestCase {
    static let events = [
        "login.succeeded", "login.failed", "login.throttled", "token.refreshed", "refresh.reuse-detected",
        "logout", "logout-all", "session.ended", "password.changed",
    ]

    /// What a run of every auth event leaves behind: the captured lines and the secrets used.
    struct Trail {
        var lines: [LogCapture.Line]
        var secrets: [String]
        var userID: UUID
    }

    func testEveryAuthEventIsOneNoticeLine() async throws {
        let trail = try await runEveryEvent()
        for event in Self.events {
            let matching = trail.lines.filter { $0.names(event) }
            XCTAssertFalse(matching.isEmpty, "no audit line for \(event)")
            for line in matching {
                XCTAssertEqual(line.level, .notice, "\(event): \(line.fullText)")
            }
        }
    }

    /// Each action in `runEveryEvent` is one event, so one line (login counts: the admin's
    /// login, four and one more by the user; failures: one by the user, three for "ghost").
    func testEachEventIsLoggedOncePerOccurrence() async throws {
        let trail = try await runEveryEvent()
        let expected = [
            "login.succeeded": 6, "login.failed": 4, "login.throttled": 1, "token.refreshed": 1,
            "refresh.reuse-detected": 1, "logout": 1, "logout-all": 1, "session.ended": 1, "password.changed": 1,
        ]
        for (event, count) in expected {
            let lines = trail.lines.filter { $0.names(event) }
            XCTAssertEqual(lines.count, count, "\(event):\n" + lines.map(\.fullText).joined(separator: "\n"))
        }
    }

    func testAuditLinesNameTheUserAndTheAddress() async throws {
        let trail = try await runEveryEvent()
        let succeeded = try XCTUnwrap(
            trail.lines.first { $0.names("login.succeeded") && $0.metadata["user-agent"] != nil }, "no login.succeeded line from the client")
        XCTAssertEqual(succeeded.metadata["user-id"]?.lowercased(), trail.userID.uuidString.lowercased(), succeeded.fullText)
        XCTAssertEqual(succeeded.metadata["address"], "127.0.0.1", succeeded.fullText)
        XCTAssertEqual(succeeded.metadata["user-agent"], "AuditClient/1.0", succeeded.fullText)
        XCTAssertNotNil(succeeded.metadata["request-id"], succeeded.fullText)
    }

    func testNoLineHoldsAPasswordATokenOrADigest() async throws {
        let trail = try await runEveryEvent()
        XCTAssertFalse(trail.lines.isEmpty)
        for line in trail.lines {
            let text = line.fullText
            for secret in trail.secrets {
                XCTAssertFalse(text.contains(secret), "a secret (\(secret.prefix(4))…) in: \(line.message)")
            }
        }
    }

    // MARK: Running every event once

    private func runEveryEvent() async throws -> Trail {
        let capture = LogCapture()
        let password = "Aud1t-Secret-Pa55", newPassword = "N3w-Audit-Secret!", wrongPassword = "Wr0ng-Guess-77"
        var tokens: [String] = []
        var userID = UUID()
        // Live: the lines name the client's address, which only a socket gives.
        try await withTestApp(.live, settings: ["LOGIN_MAX_FAILURES": "3"], logger: capture.logger()) { app in
            let client = app.client
            let admin = try await client.session("admin")
            tokens += [admin.value, admin.refreshToken]
            let created = try await client.send(
                .post, "/api/users", json: ["name": "Audit", "username": "auditor", "password": password], auth: .bearer(admin.value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            userID = try created.decode(PublicUser.self).id
            let agent: HTTPHeaders = ["User-Agent": "AuditClient/1.0"]

            var sessions: [LoginAnswer] = []
            for _ in 0..<4 { sessions.append(try await client.session("auditor", password, headers: agent)) }  // login.succeeded
            _ = try await client.login("auditor", wrongPassword, headers: agent)  // login.failed
            for _ in 0..<3 { _ = try await client.login("ghost", wrongPassword, headers: agent) }
            let throttled = try await client.login("ghost", wrongPassword, headers: agent)  // login.throttled
            XCTAssertEqual(throttled.status.code, 429)
            let pair = try await client.refreshed(sessions[0].refreshToken)  // token.refreshed
            let reuse = try await client.refresh(sessions[0].refreshToken)  // refresh.reuse-detected
            XCTAssertEqual(reuse.status.code, 401)
            let logout = try await client.send(.post, "/api/users/logout", headers: agent, auth: .bearer(sessions[1].value))  // logout
            XCTAssertEqual(logout.status.code, 204)
            let ended = try await client.send(  // session.ended
                .delete, "/api/users/me/sessions/\(sessions[3].id)", headers: agent, auth: .bearer(sessions[2].value))
            XCTAssertEqual(ended.status.code, 204)
            let changed = try await client.send(  // password.changed
                .put, "/api/users/me/password", headers: agent,
                json: ["currentPassword": password, "newPassword": newPassword], auth: .bearer(sessions[2].value))
            XCTAssertEqual(changed.status.code, 204, changed.bodyString)
            let last = try await client.session("auditor", newPassword, headers: agent)
            let all = try await client.send(.post, "/api/users/logout-all", headers: agent, auth: .bearer(last.value))  // logout-all
            XCTAssertEqual(all.status.code, 204)
            tokens += (sessions + [pair, last]).flatMap { [$0.value, $0.refreshToken] }
        }
        let credentials = [password, newPassword, wrongPassword].flatMap { secret in
            ["auditor", "ghost"].map { Data("\($0):\(secret)".utf8).base64EncodedString() }
        }
        let digests = tokens.map { SHA256.hex(of: $0) } + tokens.map { SHA256.hex(of: $0).uppercased() }
        return Trail(
            lines: capture.lines, secrets: [password, newPassword, wrongPassword] + tokens + digests + credentials, userID: userID)
    }
}

extension LogCapture.Line {
    /// True when this line reports `event` (in its `event` metadata, or its message).
    func names(_ event: String) -> Bool {
        if let name = metadata["event"] { return name == event }
        return message == event || message.hasPrefix(event + " ") || message.hasPrefix(event + ":")
    }
}
