import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two requests racing on one secret of the device flow: polls on one approved device code,
/// decisions on one user code, and many codes started at once.
final class DeviceRaceTests: XCTestCase {
    /// After the approval, eight polls at once: exactly one gets the pair, one session starts.
    func testConcurrentPollsAfterApprovalGiveExactlyOnePair() async throws {
        try await withTestApp { app in
            for _ in 0..<3 {
                let start = try await app.client.startedDevice()
                let browser = BrowserClient(app.client)
                try await browser.signIn("admin")
                _ = try await browser.decideDevice(start.userCode, approve: true)
                let (client, deviceCode) = (app.client, start.deviceCode)
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for _ in 0..<8 { group.addTask { try await client.pollDevice(deviceCode) } }
                    return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
                }
                XCTAssertEqual(answers.filter { $0.status.code == 200 }.count, 1, answers.map(\.bodyString).joined(separator: "\n"))
                for refused in answers where refused.status.code != 200 {
                    let error = try refused.jsonObject()["error"] as? String
                    XCTAssertTrue(["invalid_grant", "slow_down"].contains(error ?? ""), refused.bodyString)
                }
                let sessions = try await app.number("""
                    SELECT count(*) AS n FROM sessions WHERE kind = 'oauth' AND client_id = 'til-cli' AND id IN (
                        SELECT session_id FROM oauth_device_codes WHERE digest = \(SHA256.hex(of: start.deviceCode)))
                    """)
                XCTAssertEqual(sessions, 1)
            }
            let all = try await app.number("SELECT count(*) AS n FROM sessions WHERE kind = 'oauth'")
            XCTAssertEqual(all, 3, "one session per approved code, none more")
        }
    }

    /// Approve in one tab, deny in another, at once: one decision counts, and the device hears
    /// that one.
    func testTwoDecisionsOnOneUserCodeGiveOneOutcome() async throws {
        try await withTestApp { app in
            for _ in 0..<4 {
                let start = try await app.client.startedDevice()
                let (first, second) = (BrowserClient(app.client), BrowserClient(app.client))
                try await first.signIn("admin")
                try await second.signIn("admin")
                let approveForm = try HTMLForm.only(in: try await first.enterUserCode(start.userCode))
                let denyForm = try HTMLForm.only(in: try await second.enterUserCode(start.userCode))
                async let approved = first.submit(approveForm, clicking: (name: "decision", value: "approve"))
                async let denied = second.submit(denyForm, clicking: (name: "decision", value: "deny"))
                let (approval, denial) = try await (approved, denied)
                XCTAssertEqual([approval.status.code, denial.status.code].sorted(), [200, 400], "\(approval.bodyString)\n\(denial.bodyString)")
                let poll = try await app.client.pollDevice(start.deviceCode)
                if approval.status.code == 200 {
                    XCTAssertEqual(poll.status.code, 200, poll.bodyString)
                } else {
                    assertOAuthError(poll, 400, "access_denied")
                }
            }
        }
    }

    /// Forty codes started at once: forty distinct user codes and device codes.
    func testConcurrentStartsGiveDistinctCodes() async throws {
        try await withTestApp { app in
            let client = app.client
            let starts = try await withThrowingTaskGroup(of: (deviceCode: String, userCode: String).self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        let start = try await client.startedDevice()
                        return (start.deviceCode, start.userCode)
                    }
                }
                return try await group.reduce(into: [(deviceCode: String, userCode: String)]()) { $0.append($1) }
            }
            XCTAssertEqual(Set(starts.map(\.userCode)).count, 40)
            XCTAssertEqual(Set(starts.map(\.deviceCode)).count, 40)
        }
    }
}
