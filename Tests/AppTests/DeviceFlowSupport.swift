import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What the device flow tests share: starting a code, polling for it, and approving it
/// through the pages as a person in a browser does.
extension TestClient {
    /// `POST /oauth/device_authorization` as the public client `clientID` (`til-cli`).
    func startDevice(clientID: String = "til-cli", _ extra: [(String, String)] = [], auth: TestAuth? = nil) async throws -> TestResponse {
        try await postForm("/oauth/device_authorization", (auth == nil ? [("client_id", clientID)] : []) + extra, auth: auth)
    }

    /// A started code, failing the test unless the answer is a 200: `device_code`, `user_code`…
    func startedDevice(clientID: String = "til-cli", file: StaticString = #filePath, line: UInt = #line) async throws -> DeviceStart {
        let response = try await startDevice(clientID: clientID)
        XCTAssertEqual(response.status.code, 200, response.bodyString, file: file, line: line)
        let answer = try response.jsonObject()
        return DeviceStart(
            deviceCode: try XCTUnwrap(answer["device_code"] as? String), userCode: try XCTUnwrap(answer["user_code"] as? String),
            answer: answer)
    }

    /// One poll of the token endpoint with `deviceCode`, as the public client `clientID`.
    func pollDevice(_ deviceCode: String, clientID: String = "til-cli") async throws -> TestResponse {
        try await postForm("/oauth/token", [
            ("grant_type", OAuthClient.GrantType.deviceCode.rawValue), ("device_code", deviceCode), ("client_id", clientID),
        ])
    }
}

/// A device code as the device holds it.
struct DeviceStart {
    let deviceCode: String
    /// As shown: `XXXX-XXXX`.
    let userCode: String
    let answer: [String: Any]
}

extension TestApp {
    /// Makes the next poll of `deviceCode` come after its interval, as a device that waited
    /// would: the last poll is moved back instead of the test sleeping.
    func pollIntervalPassed(_ deviceCode: String) async throws {
        try await til.db.execute("""
            UPDATE oauth_device_codes SET last_polled_at = now() - (interval_seconds + 1) * interval '1 second'
            WHERE digest = \(SHA256.hex(of: deviceCode))
            """)
    }

    /// The stored row's status.
    func deviceStatus(_ deviceCode: String) async throws -> String? {
        try await til.db.query("SELECT status FROM oauth_device_codes WHERE digest = \(SHA256.hex(of: deviceCode))")
            .first?.decode(column: "status", as: String.self)
    }
}

extension BrowserClient {
    /// Enters `typed` on the verification page (signed in already) and posts it: the consent
    /// page when a device waits for that code.
    func enterUserCode(_ typed: String) async throws -> TestResponse {
        let form = try HTMLForm.only(in: try await get("/device"))
        return try await submit(form, ["user_code": typed])
    }

    /// Enters `typed` and decides on the consent page that follows; the answer to the decision.
    func decideDevice(_ typed: String, approve: Bool, file: StaticString = #filePath, line: UInt = #line) async throws -> TestResponse {
        let consent = try await enterUserCode(typed)
        XCTAssertEqual(consent.status, .ok, consent.bodyString, file: file, line: line)
        let form = try HTMLForm.only(in: consent, file: file, line: line)
        return try await submit(form, clicking: (name: "decision", value: approve ? "approve" : "deny"))
    }
}
