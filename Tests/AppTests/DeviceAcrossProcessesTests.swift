import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A second `til-server` over the same database: a code started on one process is approved on
/// the other's page and polled on both; the interval and the one redemption are shared.
final class DeviceAcrossProcessesTests: XCTestCase {
    func testStartHereApproveThereAndPollOnBoth() async throws {
        try await withTestApp { app in
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(["BCRYPT_COST": "4"]))
            try await other.waitUntilHealthy()
            let start = try await app.client.startedDevice()
            assertOAuthError(try await other.client.pollDevice(start.deviceCode), 400, "authorization_pending", "there")
            assertOAuthError(try await app.client.pollDevice(start.deviceCode), 400, "slow_down", "here, too soon after there")

            let browser = BrowserClient(other.client)
            try await browser.signIn("admin")
            let approved = try await browser.decideDevice(start.userCode.lowercased(), approve: true)
            XCTAssertEqual(approved.status, .ok, approved.bodyString)

            try await app.pollIntervalPassed(start.deviceCode)
            let pair = try await app.client.pollDevice(start.deviceCode)
            XCTAssertEqual(pair.status.code, 200, pair.bodyString)
            let access = try XCTUnwrap(try pair.jsonObject()["access_token"] as? String)
            let me = try await other.client.meStatus(access)
            XCTAssertEqual(me, 200, "issued here, honoured there")
            try await app.pollIntervalPassed(start.deviceCode)
            assertOAuthError(try await other.client.pollDevice(start.deviceCode), 400, "invalid_grant", "redeemed here, spent there")
            await [other].stopAll(showingOutputIf: hasFailed)
        }
    }
}
