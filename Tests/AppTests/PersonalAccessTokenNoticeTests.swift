import AppTesting
import Crypt
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What a new token leaves behind besides itself: a notice queued to a verified email in the
/// same transaction (none to an unverified one, none for a refused creation), and audit lines
/// `pat.created` and `pat.revoked` that name the token's id, never its value.
final class PersonalAccessTokenNoticeTests: XCTestCase {
    func testANewTokenQueuesANoticeToAVerifiedEmailOnly() async throws {
        try await withTestApp { app in
            let verified = try await User.create(on: app)
            let unverified = try await User.create(on: app)
            let none = try await User.create(on: app)
            try await app.til.db.execute("""
                UPDATE users SET email = CASE id WHEN \(verified.id) THEN 'verified@example.com' ELSE 'unverified@example.com' END,
                                 email_verified_at = CASE id WHEN \(verified.id) THEN now() END
                WHERE id IN (\(verified.id), \(unverified.id))
                """)
            var tokens: [String] = []
            for user in [verified, unverified, none] {
                let login = try await app.client.session(user.username)
                tokens.append(try await app.client.pat("Nightly ✓", scopes: ["acronyms:write"], bearer: login.value).token)
            }
            let rows = try await app.til.db.query("SELECT kind, recipient, subject, text_body, html_body FROM mail_outbox ORDER BY seq")
            XCTAssertEqual(rows.count, 1, "one notice: to the verified address only")
            let row = try XCTUnwrap(rows.first)
            XCTAssertEqual(try row.decode(column: "kind", as: String.self), "personal-access-token-created")
            XCTAssertEqual(try row.decode(column: "recipient", as: String.self), "verified@example.com")
            XCTAssertEqual(try row.decode(column: "subject", as: String.self), "New personal access token for your TIL account")
            let text = try row.decode(column: "text_body", as: String.self)
            let html = try row.decode(column: "html_body", as: String.self)
            for fragment in ["“Nightly ✓”", verified.username, "It may use: acronyms:write.", "http://127.0.0.1:8080/account"] {
                XCTAssertTrue(text.contains(fragment), "\(fragment) in \(text)")
            }
            XCTAssertTrue(html.contains("Review your tokens"), html)
            for token in tokens {
                XCTAssertFalse(text.contains(token) || html.contains(token), "a token in a notice")
                XCTAssertFalse(text.contains(SHA256.hex(of: token)), "a digest in a notice")
            }
        }
    }

    /// The notice is written by the creation's transaction: a refused creation queues none.
    func testARefusedCreationQueuesNoNotice() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            try await app.til.db.execute("UPDATE users SET email = 'capped@example.com', email_verified_at = now() WHERE id = \(user.id)")
            try await app.til.db.execute("""
                INSERT INTO sessions (id, user_id, kind, name, scopes, amr, expires_at, refresh_expires_at)
                SELECT gen_random_uuid(), \(user.id), 'pat', 'filler ' || n, '', '{}', now() + interval '1 day', now() + interval '1 day'
                FROM generate_series(1, \(PersonalAccessTokenRepository.maxLivePerUser)) AS n
                """)
            let login = try await app.client.session(user.username)
            let refused = try await app.client.createPAT(bearer: login.value)
            XCTAssertEqual(refused.status.code, 409)
            let queued = try await app.number("SELECT count(*)::int AS n FROM mail_outbox")
            XCTAssertEqual(queued, 0)
        }
    }

    func testCreationAndRevocationAreAuditedWithoutTheToken() async throws {
        let capture = LogCapture()
        var secrets: [String] = []
        var ids: (user: UUID, token: UUID)?
        try await withTestApp(logger: capture.logger()) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let pat = try await app.client.pat(bearer: login.value)
            let revoked = try await app.client.revokePAT(pat.id, bearer: login.value)
            XCTAssertEqual(revoked, 204)
            secrets = [pat.token, SHA256.hex(of: pat.token), String(pat.token.dropFirst("til_pat_".count))]
            ids = (user.id, pat.id)
        }
        let (userID, tokenID) = try XCTUnwrap(ids)
        for event in ["pat.created", "pat.revoked"] {
            let lines = capture.lines.filter { $0.names(event) }
            XCTAssertEqual(lines.count, 1, event)
            XCTAssertEqual(lines.first?.level, .notice)
            XCTAssertEqual(lines.first?.metadata["user-id"]?.lowercased(), userID.uuidString.lowercased(), event)
            XCTAssertEqual(lines.first?.metadata["session-id"]?.lowercased(), tokenID.uuidString.lowercased(), "\(event) names the token's id")
        }
        for line in capture.lines {
            for secret in secrets { XCTAssertFalse(line.fullText.contains(secret), "a token in: \(line.message)") }
        }
    }
}
