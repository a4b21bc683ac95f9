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

    /// Seventy codes asked for at once from one address by the public til-cli: exactly the
    /// hourly limit is started, each with its own user code and device code; the rest hear 429.
    /// A confidential client, which proves who it is, is not limited.
    func testConcurrentStartsGiveDistinctCodesUpToTheAddresssLimit() async throws {
        try await withTestApp { app in
            let client = app.client
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<70 { group.addTask { try await client.startDevice() } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let started = answers.filter { $0.status.code == 200 }
            let limit = DeviceAuthorizationController.publicLimitPerHour
            XCTAssertEqual(started.count, limit, answers.map(\.bodyString).joined(separator: "\n"))
            for refused in answers where refused.status.code != 200 {
                assertOAuthError(refused, 429, "temporarily_unavailable")
                XCTAssertEqual(refused.headers["Retry-After"], "3600")
            }
            let codes = try started.map { try XCTUnwrap(try $0.jsonObject()["user_code"] as? String) }
            XCTAssertEqual(Set(codes).count, limit)
            let devices = try started.map { try XCTUnwrap(try $0.jsonObject()["device_code"] as? String) }
            XCTAssertEqual(Set(devices).count, limit)
            let stored = try await app.number("SELECT count(*) AS n FROM oauth_device_codes")
            XCTAssertEqual(stored, limit)

            let confidential = try await app.oauthClient([
                "grant_types": [OAuthClient.GrantType.deviceCode.rawValue], "redirect_uris": [String](), "scope": "acronyms:write",
            ])
            let proven = try await app.client.startDevice(auth: confidential.basic)
            XCTAssertEqual(proven.status.code, 200, proven.bodyString)
        }
    }
}
