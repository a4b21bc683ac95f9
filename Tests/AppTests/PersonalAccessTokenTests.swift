import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `/api/users/me/tokens`: a personal access token is made by a login, shown once, works as a
/// bearer token within its scopes until it expires or is revoked, and is stored as a digest.
final class PersonalAccessTokenTests: XCTestCase {
    func testATokenIsShownOnceStoredAsADigestAndMatchesTheScannerPattern() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let response = try await app.client.createPAT("CI deploys", scopes: ["categories:write", "acronyms:write"], bearer: login.value)
            XCTAssertEqual(response.status.code, 201, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            let created = try response.decode(CreatedPAT.self)
            let whole = try NSRegularExpression(pattern: "^" + patScannerPattern + "$")
            XCTAssertEqual(whole.numberOfMatches(in: created.token, range: NSRange(created.token.startIndex..., in: created.token)), 1, created.token)
            XCTAssertEqual(created.name, "CI deploys")
            XCTAssertEqual(created.scopes, ["acronyms:write", "categories:write"], "canonical order")

            // Only the digest is stored: no column of any row holds the value.
            let digests = try await app.number("SELECT count(*)::int AS n FROM tokens WHERE digest = \(SHA256.hex(of: created.token))")
            XCTAssertEqual(digests, 1)
            let clear = try await app.number("""
                SELECT count(*)::int AS n FROM sessions s JOIN tokens t ON t.session_id = s.id
                WHERE strpos(s::text, \(created.token)) > 0 OR strpos(t::text, \(created.token)) > 0
                """)
            XCTAssertEqual(clear, 0)
            let refreshTokens = try await app.number("SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = \(created.id)")
            XCTAssertEqual(refreshTokens, 0, "a personal access token is never refreshed")

            // The list never shows a value.
            let list = try await app.client.send(.get, "/api/users/me/tokens", auth: .bearer(login.value))
            XCTAssertFalse(list.bodyString.contains(created.token))
            XCTAssertFalse(list.bodyString.contains(SHA256.hex(of: created.token)))
            let listed = try list.decode([ListedPAT].self)
            XCTAssertEqual(listed.map(\.id), [created.id])
            XCTAssertEqual(listed.first?.expiresAt, created.expiresAt)
            XCTAssertNil(listed.first?.lastUsedAt, "never used yet")
            XCTAssertNil(listed.first?.lastUsedFrom)
        }
    }

    func testATokenWorksWithinItsScopesOnReadsAndCheckedWrites() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let pat = try await app.client.pat(scopes: ["acronyms:write"], bearer: login.value).token
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(pat))
            XCTAssertEqual(try me.decode(PublicUser.self).id, user.id)
            // A checked write (one statement) as the token's owner.
            let acronym = try await app.client.send(.post, "/api/acronyms", json: ["short": "PAT", "long": "Personal access token"], auth: .bearer(pat))
            XCTAssertEqual(acronym.status.code, 200, acronym.bodyString)
            XCTAssertEqual(try acronym.decode(Acronym.self).user.id, user.id)
            // A scope it does not hold.
            let category = try await app.client.send(.post, "/api/categories", json: ["name": "Tokens"], auth: .bearer(pat))
            assertInsufficientScope(category, needed: "categories:write", "a token holding acronyms:write only")
            let newUser = try await app.client.send(
                .post, "/api/users", json: ["name": "N", "username": "nobody", "password": "password"], auth: .bearer(pat))
            assertInsufficientScope(newUser, needed: "users:write", "a token holding acronyms:write only")
        }
    }

    func testExpiryIsTheCreationPlusExpiresInAndAnExpiredTokenIs401() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let created = try await app.client.pat(expiresIn: 3600, bearer: login.value)
            let createdAt = try XCTUnwrap(WireDate.date(from: created.createdAt))
            let expiresAt = try XCTUnwrap(WireDate.date(from: created.expiresAt))
            XCTAssertEqual(expiresAt.timeIntervalSince(createdAt), 3600, accuracy: 1)
            let fresh = try await app.client.meStatus(created.token)
            XCTAssertEqual(fresh, 200)

            try await app.til.db.execute("""
                WITH t AS (UPDATE tokens SET expires_at = now() - interval '1 second' WHERE session_id = \(created.id))
                UPDATE sessions SET expires_at = now() - interval '1 second', refresh_expires_at = now() - interval '1 second'
                WHERE id = \(created.id)
                """)
            let expired = try await app.client.send(.get, "/api/users/me", auth: .bearer(created.token))
            assertInvalidToken(expired, "expired")
            XCTAssertTrue(expired.bodyString.contains("expired"), expired.bodyString)
            let write = try await app.client.send(.post, "/api/acronyms", json: ["short": "X", "long": "Y"], auth: .bearer(created.token))
            assertInvalidToken(write, "expired, on a checked write")
            let listed = try await app.client.listedPATs(bearer: login.value).count
            XCTAssertEqual(listed, 0, "an expired token is not listed")
            let revocation = try await app.client.revokePAT(created.id, bearer: login.value)
            XCTAssertEqual(revocation, 404, "nor revoked")
        }
    }

    func testPATMaxTTLBoundsExpiresIn() async throws {
        try await withTestApp(settings: ["PAT_MAX_TTL": "7200"]) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let longest = try await app.client.createPAT(expiresIn: 7200, bearer: login.value)
            XCTAssertEqual(longest.status.code, 201, longest.bodyString)
            let past = try await app.client.createPAT(expiresIn: 7201, bearer: login.value)
            XCTAssertEqual(past.status.code, 400, past.bodyString)
            XCTAssertEqual(try past.decode(ErrorAnswer.self).reason, "'expiresIn' must be a whole number of seconds from 1 to 7200.")
        }
    }

    func testRevokingEndsTheTokenAtOnceAndAnotherUsersIdIs404() async throws {
        try await withTestApp { app in
            let owner = try await User.create(on: app)
            let stranger = try await User.create(name: "Stranger", on: app)
            let ownerLogin = try await app.client.session(owner.username)
            let strangerLogin = try await app.client.session(stranger.username)
            let kept = try await app.client.pat("kept", bearer: ownerLogin.value)
            let revoked = try await app.client.pat("revoked", bearer: ownerLogin.value)

            let byStranger = try await app.client.revokePAT(revoked.id, bearer: strangerLogin.value)
            XCTAssertEqual(byStranger, 404, "another user's token")
            let afterStranger = try await app.client.meStatus(revoked.token)
            XCTAssertEqual(afterStranger, 200, "the stranger revoked nothing")
            let byOwner = try await app.client.revokePAT(revoked.id, bearer: ownerLogin.value)
            XCTAssertEqual(byOwner, 204)
            let afterRevocation = try await app.client.send(.get, "/api/users/me", auth: .bearer(revoked.token))
            assertInvalidToken(afterRevocation, "revoked")
            let twice = try await app.client.revokePAT(revoked.id, bearer: ownerLogin.value)
            XCTAssertEqual(twice, 404, "already revoked")
            let unknown = try await app.client.revokePAT(UUID(), bearer: ownerLogin.value)
            XCTAssertEqual(unknown, 404, "unknown")
            let names = try await app.client.listedPATs(bearer: ownerLogin.value).map(\.name)
            XCTAssertEqual(names, ["kept"])
            let keptStatus = try await app.client.meStatus(kept.token)
            XCTAssertEqual(keptStatus, 200)
        }
    }

    func testAnAccountHoldsAtMost50LiveTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            try await insertPATs(PersonalAccessTokenRepository.maxLivePerUser - 1, of: user.id, on: app)
            let fiftieth = try await app.client.pat("fiftieth", bearer: login.value)
            let refused = try await app.client.createPAT("fifty-first", bearer: login.value)
            XCTAssertEqual(refused.status.code, 409, refused.bodyString)
            XCTAssertEqual(
                try refused.decode(ErrorAnswer.self).reason,
                "You have 50 live personal access tokens, the most one account may hold: revoke one first.")
            let revocation = try await app.client.revokePAT(fiftieth.id, bearer: login.value)
            XCTAssertEqual(revocation, 204)
            let again = try await app.client.createPAT("in its place", bearer: login.value)
            XCTAssertEqual(again.status.code, 201, "a revoked token does not count: \(again.bodyString)")
        }
    }

    /// Only TIL's own logins make tokens: a third-party application holding `account` cannot
    /// mint a year-long token that its grant's withdrawal would not end.
    func testAThirdPartyApplicationsTokenCannotMakeOne() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let appToken = try await insertOAuthSession(of: user.id, client: "third-party-app", on: app)
            let refused = try await app.client.createPAT(bearer: appToken)
            XCTAssertEqual(refused.status.code, 403, refused.bodyString)
            XCTAssertTrue(try refused.decode(ErrorAnswer.self).reason.contains("not by an application"), refused.bodyString)
            let cli = try await insertOAuthSession(of: user.id, client: "til-cli", on: app)
            let made = try await app.client.createPAT(bearer: cli)
            XCTAssertEqual(made.status.code, 201, "til's own web login may: \(made.bodyString)")
            let left = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'pat'")
            XCTAssertEqual(left, 1)
        }
    }

    func testTheListAndTheSessionsListAreApart() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let pat = try await app.client.pat(bearer: login.value)
            let sessions = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(login.value))
            let listed = try sessions.decode([SessionEntry].self).map(\.id)
            XCTAssertEqual(listed, [login.id], "a token is not a login")
            let end = try await app.client.send(.delete, "/api/users/me/sessions/\(pat.id)", auth: .bearer(login.value))
            XCTAssertEqual(end.status.code, 404, "tokens are revoked under /tokens: \(end.bodyString)")
            let stillWorks = try await app.client.meStatus(pat.token)
            XCTAssertEqual(stillWorks, 200)
        }
    }

    /// The purge removes a token's rows a day after it expired or was revoked, as a login's;
    /// a live one stays.
    func testThePurgeRemovesEndedTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            _ = try await app.client.pat("expiring", expiresIn: 60, bearer: login.value)
            let revoked = try await app.client.pat("revoked", bearer: login.value)
            let live = try await app.client.pat("live", expiresIn: 10 * 86400, bearer: login.value)
            let revocation = try await app.client.revokePAT(revoked.id, bearer: login.value)
            XCTAssertEqual(revocation, 204)
            try await app.purger.purgeOnce(asOf: Date().addingTimeInterval(2 * 86400))
            let left = try await app.til.db.query("SELECT id FROM sessions WHERE kind = 'pat' AND user_id = \(user.id)")
            XCTAssertEqual(try left.map { try $0.decode(column: "id", as: UUID.self) }, [live.id])
            let liveTokenRows = try await app.number("SELECT count(*)::int AS n FROM tokens WHERE session_id = \(live.id)")
            XCTAssertEqual(liveTokenRows, 1)
        }
    }

    // MARK: Helpers

    /// `count` live tokens of `userID`, written straight into the database.
    private func insertPATs(_ count: Int, of userID: UUID, on app: TestApp) async throws {
        try await app.til.db.execute("""
            INSERT INTO sessions (id, user_id, kind, name, scopes, amr, expires_at, refresh_expires_at)
            SELECT gen_random_uuid(), \(userID), 'pat', 'filler ' || n, 'acronyms:write', '{}', now() + interval '1 day', now() + interval '1 day'
            FROM generate_series(1, \(count)) AS n
            """)
    }
}

/// An access token of an OAuth session `client` holds for `userID` (every scope), its user
/// signed in just now, written straight into the database: the client registered first.
func insertOAuthSession(of userID: UUID, client: String, on app: TestApp) async throws -> String {
    let value = SecureRandom.token()
    let sessionID = UUID()
    try await app.til.db.execute("""
        INSERT INTO oauth_clients (id, name, auth_method, redirect_uris, grant_types, scope)
        VALUES (\(client), \(client), 'none', 'https://app.example/cb', 'authorization_code', 'acronyms:write account')
        ON CONFLICT (id) DO NOTHING
        """)
    try await app.til.db.execute("""
        WITH s AS (
            INSERT INTO sessions (id, user_id, kind, client_id, scopes, expires_at, refresh_expires_at, auth_time)
            VALUES (\(sessionID), \(userID), 'oauth', \(client), 'acronyms:write categories:write users:write account',
                    now() + interval '1 hour', now() + interval '1 day', now())
        )
        INSERT INTO tokens (id, digest, user_id, session_id, expires_at)
        VALUES (gen_random_uuid(), \(SHA256.hex(of: value)), \(userID), \(sessionID), now() + interval '1 hour')
        """)
    return value
}
