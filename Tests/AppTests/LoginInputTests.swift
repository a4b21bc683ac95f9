import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Bad input to the two places a password is checked, `POST /api/users/login` and
/// `PUT /api/users/me/password`: a clear refusal, and never a count against the throttle for
/// a request whose password was never checked. Over-long names are checked like any wrong name
/// and share the counter of their first 256 characters. (A NUL: `RequestBoundaryTests`; too
/// long a password: `AuthenticationTests`.)
final class LoginInputTests: XCTestCase {
    private static let settings = ["LOGIN_MAX_FAILURES": "2", "LOGIN_WINDOW": "60"]

    func testMalformedBasicCredentialsAre401AndCountNothing() async throws {
        try await withTestApp(settings: Self.settings) { app in
            func basic(_ bytes: [UInt8]) -> HTTPHeaders { ["Authorization": "Basic " + Data(bytes).base64EncodedString()] }
            let malformed: [(String, HTTPHeaders)] = [
                ("not UTF-8", basic(Array("admin:".utf8) + [0xFF, 0xFE, 0x70])),
                ("a username not UTF-8", basic(Array("adm".utf8) + [0xC0, 0xAF] + Array(":password".utf8))),
                ("no colon", basic(Array("adminpassword".utf8))),
                ("over 1024 characters", basic(Array("admin:".utf8) + Array(repeating: UInt8(ascii: "p"), count: 800))),
                ("empty", ["Authorization": "Basic "]),
                ("not base64", ["Authorization": "Basic ***"]),
            ]
            for (label, headers) in malformed {
                for _ in 1...2 {
                    let response = try await app.client.send(.post, "/api/users/login", headers: headers)
                    XCTAssertEqual(response.status.code, 401, "\(label): \(response.bodyString)")
                    XCTAssertEqual(response.headers["WWW-Authenticate"], #"Basic realm="TIL""#, label)
                    XCTAssertEqual((try? response.decode(ErrorAnswer.self))?.error, true, label)
                }
            }
            let counted = try await app.number("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(counted, 0, "no password was checked, so nothing was counted")
            let login = try await app.client.login("admin", "password")
            XCTAssertEqual(login.status.code, 200, login.bodyString)
        }
    }

    func testOverlongUsernamesAreWrongNamesSharingTheCounterOfTheirFirst256Characters() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            let stem = String(repeating: "a", count: 256)
            for (attempt, name) in [stem + "b", stem + String(repeating: "c", count: 300), stem + "İ"].enumerated() {
                let failed = try await app.client.login(name, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, "attempt \(attempt + 1) (\(name.utf8.count) bytes)")
            }
            assertThrottled(try await app.client.login(stem + "d", "wrong-password"), window: 60)
            let keys = try await app.number("SELECT count(DISTINCT username) AS n FROM login_failures")
            XCTAssertEqual(keys, 1, "one key, the first 256 characters")
            let longest = try await app.number("SELECT max(length(username)) AS n FROM login_failures")
            XCTAssertEqual(longest, 256)
        }
    }

    /// A change whose body cannot be read, or whose new password breaks the rules, is refused
    /// before the current password is checked: it costs no bcrypt and counts no failure.
    func testBadPasswordChangeBodiesAre400AndCountNothing() async throws {
        try await withTestApp(settings: Self.settings) { app in
            let user = try await User.create(on: app)
            let session = try await app.client.session(user.username)
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let bodies = [
                #"{"currentPassword":"wrong-one","newPassword":"short"}"#,
                #"{"currentPassword":"wrong-one","newPassword":"\#(String(repeating: "n", count: 73))"}"#,
                #"{"currentPassword":"wrong\u0000one","newPassword":"brand-new-pw"}"#,
                #"{"currentPassword":12345678,"newPassword":"brand-new-pw"}"#,
                #"{"currentPassword":"wrong-one"}"#,
                #"{"newPassword":"brand-new-pw"}"#,
                #"currentPassword=wrong-one&newPassword=brand-new-pw"#,
                #"{"currentPassword":"wrong-one","newPassword":"brand-new-pw""#,
            ]
            for body in bodies {
                let response = try await app.client.send(
                    .put, "/api/users/me/password", headers: json, body: Array(body.utf8), auth: .bearer(session.value))
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
                XCTAssertEqual((try? response.decode(ErrorAnswer.self))?.error, true, body)
            }
            let counted = try await app.number("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(counted, 0)
            let change = try await app.client.send(
                .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": "brand-new-pw"],
                auth: .bearer(session.value))
            XCTAssertEqual(change.status.code, 204, change.bodyString)
        }
    }
}
