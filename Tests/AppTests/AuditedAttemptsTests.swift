import AppTesting
import Logging
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 17: "Failed password changes are not audited, and throttled or unknown-user lines
/// carry no normalised username." A wrong or throttled current password is now a line of its
/// own, and every failed or throttled attempt names the username as PostgreSQL folds it (the
/// throttle's key and the lookup's), never a password.
final class AuditedAttemptsTests: XCTestCase {
    static let settings = ["LOGIN_MAX_FAILURES": "2", "LOGIN_WINDOW": "60"]

    func testFailedPasswordChangesAreAudited() async throws {
        let capture = LogCapture()
        try await withTestApp(settings: Self.settings, logger: capture.logger()) { app in
            let user = try await User.create(username: "Wanda", on: app)
            let login = try await app.client.session("wanda")
            for guess in ["not-it-1", "not-it-2", "password"] {
                let response = try await app.client.send(
                    .put, "/api/users/me/password", json: ["currentPassword": guess, "newPassword": "brand-new-pw"],
                    auth: .bearer(login.value))
                XCTAssertEqual(response.status.code, guess == "password" ? 429 : 403, response.bodyString)
            }
            let failed = capture.lines.filter { $0.names("password.change-failed") }
            let throttled = capture.lines.filter { $0.names("password.change-throttled") }
            XCTAssertEqual(failed.count, 2, capture.lines.map(\.fullText).joined(separator: "\n"))
            XCTAssertEqual(throttled.count, 1)
            for line in failed + throttled {
                XCTAssertEqual(line.level, .notice)
                XCTAssertEqual(line.metadata["user-id"]?.lowercased(), user.id.uuidString.lowercased(), line.fullText)
                XCTAssertEqual(line.metadata["session-id"]?.lowercased(), login.id.uuidString.lowercased(), line.fullText)
                XCTAssertEqual(line.metadata["username"], "wanda", line.fullText)
            }
            XCTAssertFalse(capture.lines.contains { $0.fullText.contains("not-it") || $0.fullText.contains("brand-new-pw") })
        }
    }

    func testThrottledAndUnknownUserLinesCarryTheNormalisedUsername() async throws {
        let capture = LogCapture()
        try await withTestApp(settings: Self.settings, logger: capture.logger()) { app in
            let user = try await User.create(username: "ingrid", on: app)
            // Composed and decomposed Ö, upper case: one name, "ghöst", to PostgreSQL.
            for spelling in ["GHÖST", "GHO\u{308}ST"] {
                let failed = try await app.client.login(spelling, "wrong-password")
                XCTAssertEqual(failed.status.code, 401, spelling)
            }
            assertThrottled(try await app.client.login("Ghöst", "wrong-password"), window: 60)
            let known = try await app.client.login("İNGRİD", "wrong-password")
            XCTAssertEqual(known.status.code, 401)

            let failed = capture.lines.filter { $0.names("login.failed") }
            let trail = failed.map(\.fullText).joined(separator: "\n")
            XCTAssertEqual(failed.map { $0.metadata["username"] }, ["ghöst", "ghöst", "ingrid"], trail)
            XCTAssertEqual(failed.map { $0.metadata["user-id"]?.lowercased() }, [nil, nil, user.id.uuidString.lowercased()])
            let throttled = capture.lines.filter { $0.names("login.throttled") }
            XCTAssertEqual(throttled.map { $0.metadata["username"] }, ["ghöst"])
            XCTAssertFalse(capture.lines.contains { $0.fullText.contains("wrong-password") })
        }
    }
}
