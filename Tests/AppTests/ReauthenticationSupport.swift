import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What the re-authentication tests share: making a session's sign-in old without waiting
/// (its `auth_time` moved back in SQL), reading what a session records, and the step-up
/// challenge as RFC 9470 §3 writes it.
extension TestApp {
    /// Moves `sessionID`'s last authentication `seconds` into the past (11 minutes: past the
    /// default `REAUTH_WINDOW`), as if the sign-in were that old.
    func ageAuthentication(of sessionID: UUID, by seconds: Int = 660) async throws {
        try await til.db.execute("UPDATE sessions SET auth_time = now() - \(seconds) * interval '1 second' WHERE id = \(sessionID)")
    }

    /// The same for every session of `userID` (a browser's, whose id the test does not see).
    func ageAuthentications(ofUser userID: UUID, by seconds: Int = 660) async throws {
        try await til.db.execute("UPDATE sessions SET auth_time = now() - \(seconds) * interval '1 second' WHERE user_id = \(userID)")
    }

    /// `sessionID`'s `auth_time` (seconds ago, by the database's clock; nil when it has none) and `amr`.
    func authentication(of sessionID: UUID) async throws -> (secondsAgo: Double?, amr: [String]) {
        let rows = try await til.db.query("""
            SELECT extract(epoch FROM now() - auth_time)::float8 AS ago, array_to_string(amr, ' ') AS amr FROM sessions WHERE id = \(sessionID)
            """)
        let row = try XCTUnwrap(rows.first, "no session \(sessionID)")
        return (try row.decode(column: "ago", as: Double?.self), try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init))
    }

    /// `POST /api/users/me/reauth` with `body` as the bearer of `token`.
    func reauth(_ token: String, _ body: [String: String]) async throws -> TestResponse {
        try await client.send(.post, "/api/users/me/reauth", json: body, auth: .bearer(token))
    }
}

/// Asserts RFC 9470's challenge: 401, `WWW-Authenticate: Bearer … error="insufficient_user_authentication"
/// … max_age="<maxAge>"` (then RFC 9728's `resource_metadata`, as on every Bearer challenge),
/// and the JSON body with `reauthRequired` and `maxAge`.
func assertStepUp(
    _ response: TestResponse, maxAge: Int = 600, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(response.status.code, 401, "\(message): \(response.bodyString)", file: file, line: line)
    let challenge = response.headers["WWW-Authenticate"] ?? ""
    let expected = #"Bearer realm="TIL", error="insufficient_user_authentication", error_description="A more recent authentication is required", max_age="\#(maxAge)", resource_metadata="http://"#
    XCTAssertTrue(challenge.hasPrefix(expected), "\(message): \(challenge)", file: file, line: line)
    guard let body = try? response.decode(ReauthenticationRequired.self) else {
        return XCTFail("\(message): not a step-up body: \(response.bodyString)", file: file, line: line)
    }
    XCTAssertEqual(body.maxAge, maxAge, message, file: file, line: line)
    XCTAssertTrue(body.error && body.reauthRequired, message, file: file, line: line)
    XCTAssertNil(body.next, "the API names no page", file: file, line: line)
}
