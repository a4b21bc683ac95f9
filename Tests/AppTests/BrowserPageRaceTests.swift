import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The pages' secrets raced: one sign-out form posted twice at once, one browser session used
/// by two authorization requests at once, one login form's throttle counter hit by many wrong
/// passwords at once; and forms shown by one til-server process posted to another.
final class BrowserPageRaceTests: ServerProcessTestCase {
    /// The headers of a post from the browser holding `cookies`, sent outside `BrowserClient`
    /// so that several can be in flight together.
    private func formHeaders(_ cookies: [String: String]) -> HTTPHeaders {
        let cookie = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        return ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"]
    }

    /// Both posts of one sign-out form answer the signed-out page, but the session ends once:
    /// one `logout` audit line per session, whichever post won.
    func testOneSignOutFormPostedTwiceAtOnceEndsTheSessionOnce() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            _ = try await User.create(username: "bodhi", on: app)
            for path in ["/logout", "/oauth/logout"] {
                let browser = BrowserClient(app.client)
                try await browser.signIn("bodhi")
                let cookie = try XCTUnwrap(browser.cookies["til_session"])
                let form = try HTMLForm.only(in: try await browser.get(path))
                let (headers, body) = (formHeaders(browser.cookies), Array(QueryEncoding.encode(form.fields).utf8))
                let client = app.client
                async let first = client.send(.post, path, headers: headers, body: body)
                async let second = client.send(.post, path, headers: headers, body: body)
                let answers = try await [first, second]
                XCTAssertEqual(answers.map(\.status), [.ok, .ok], path)
                for answer in answers {
                    answer.assertPageHeaders()
                    XCTAssertTrue(answer.headers.values(for: "Set-Cookie").contains { $0.hasPrefix("til_session=;") && $0.contains("Max-Age=0") })
                }
                let rows = try await app.til.db.query("""
                    SELECT count(*) AS n FROM sessions WHERE browser_digest = \(SHA256.hex(of: cookie)) AND revoked_at IS NOT NULL
                    """)
                XCTAssertEqual(try rows[0].decode(column: "n", as: Int64.self), 1, path)
            }
            XCTAssertEqual(capture.lines.filter { $0.names("logout") }.count, 2, "one line per session ended, not per post")
        }
    }

    /// Two authorization requests at once on a session due to slide: both get their own code,
    /// bound to the one session's login time, and the session slides (still one live row).
    func testOneBrowserSessionAnswersTwoAuthorizationRequestsAtOnce() async throws {
        try await withTestApp(settings: ["BROWSER_SESSION_IDLE": "3600"]) { app in
            let user = try await User.create(username: "kallus", on: app)
            let client = try await StoredClient.create(trusted: true, on: app)
            let browser = BrowserClient(app.client)
            try await browser.signIn("kallus")
            try await app.til.db.execute("""
                UPDATE sessions SET last_used_at = now() - interval '120 seconds', expires_at = now() + interval '600 seconds'
                WHERE user_id = \(user.id) AND kind = 'browser'
                """)
            let headers = formHeaders(browser.cookies)
            let (one, two) = (AuthorizationFlowTests.authorize(client, PKCEPair()), AuthorizationFlowTests.authorize(client, PKCEPair()))
            let http = app.client
            async let first = http.send(.get, one, headers: headers)
            async let second = http.send(.get, two, headers: headers)
            let answers = try await [first, second]
            XCTAssertEqual(answers.map(\.status), [.seeOther, .seeOther], answers.map(\.bodyString).joined())
            let codes = try answers.map { try XCTUnwrap(try $0.redirectQuery()["code"]) }
            XCTAssertEqual(Set(codes).count, 2, "a code per request")
            let sessions = try await app.til.db.query("""
                SELECT count(*) AS n, min(extract(epoch FROM expires_at - now()))::int8 AS left_s FROM sessions
                WHERE user_id = \(user.id) AND kind = 'browser' AND revoked_at IS NULL
                """)
            XCTAssertEqual(try sessions[0].decode(column: "n", as: Int64.self), 1)
            XCTAssertGreaterThan(try sessions[0].decode(column: "left_s", as: Int64.self), 3000, "slid to the idle lifetime")
            let bound = try await app.til.db.query("""
                SELECT count(*) AS n FROM oauth_codes c JOIN sessions s ON s.user_id = c.user_id AND s.kind = 'browser'
                WHERE c.auth_time = s.created_at
                """)
            XCTAssertEqual(try bound[0].decode(column: "n", as: Int64.self), 2, "both codes carry the login's time")
        }
    }

    /// As `ThrottleConcurrencyTests` for Basic logins: one login form posted with a wrong
    /// password twelve times at once checks three passwords; the rest get the 429 page.
    func testOneLoginFormPostedWithWrongPasswordsAtOnceChecksOnlyTheThrottlesCount() async throws {
        let settings = ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60", "BCRYPT_COST": "10"]
        try await withTestApp(settings: settings) { app in
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let headers = formHeaders(browser.cookies)
            let fields = form.fields.map { (name: $0.name, value: $0.name == "username" ? "admin" : $0.name == "password" ? "wrong" : $0.value) }
            let body = Array(QueryEncoding.encode(fields).utf8)
            let client = app.client
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<12 { group.addTask { try await client.send(.post, "/login", headers: headers, body: body) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let statuses = answers.map(\.status.code)
            XCTAssertEqual(statuses.filter { $0 == 401 }.count, 3, "\(statuses)")
            XCTAssertEqual(statuses.filter { $0 == 429 }.count, 9, "\(statuses)")
            for answer in answers {
                answer.assertPageHeaders()
                XCTAssertNil(answer.headers["WWW-Authenticate"], "a page, not a Basic challenge")
                XCTAssertFalse(answer.headers.values(for: "Set-Cookie").contains { $0.hasPrefix("til_session=") })
            }
            for answer in answers where answer.status.code == 429 {
                XCTAssertNotNil(answer.headers["Retry-After"].flatMap { Int($0) })
            }
        }
    }

    /// Two processes over one database: a login form shown by A is posted to B (its token is
    /// bound to the pre-login cookie, not to a process), `/oauth/logout` shown by A is confirmed
    /// on B, and `logout-all` answered by B ends the browser session A sees.
    func testFormsShownByOneProcessArePostedToAnotherAndLogoutAllEndsTheSessionForBoth() async throws {
        _ = try await withTestApp { app in try await User.create(username: "kanan", on: app) }
        servers = try await ServerProcess.healthy(2, settings: ["ISSUER": "http://127.0.0.1:9"])
        let onA = BrowserClient(servers[0].client), onB = BrowserClient(servers[1].client)
        func share(_ from: BrowserClient, _ to: BrowserClient) { for name in ["til_login", "til_session"] { to.setCookie(name, from.cookies[name]) } }
        // Signed in on B through A's form.
        let loginForm = try HTMLForm.only(in: try await onA.get("/login"))
        share(onA, onB)
        let signedIn = try await onB.submit(loginForm, ["username": "kanan", "password": "password"])
        XCTAssertEqual(signedIn.status, .seeOther)
        share(onB, onA)
        let aSignedIn = try await onA.isSignedIn()
        XCTAssertTrue(aSignedIn, "A knows the session B started")
        // Signed out on B through A's /oauth/logout form.
        let signOutForm = try HTMLForm.only(in: try await onA.get("/oauth/logout"))
        let signedOut = try await onB.submit(signOutForm)
        XCTAssertEqual(signedOut.status, .ok)
        let aAfterSignOut = try await onA.isSignedIn()
        XCTAssertFalse(aAfterSignOut, "A sees the session B ended")
        // Signed in again on A; logout-all on B ends it for A too.
        try await onA.signIn("kanan")
        let token = try await servers[1].client.session("kanan").value
        let everywhere = try await servers[1].client.send(.post, "/api/users/logout-all", auth: .bearer(token))
        XCTAssertEqual(everywhere.status, .noContent)
        let aAfterLogoutAll = try await onA.isSignedIn()
        XCTAssertFalse(aAfterLogoutAll, "logout-all on B ended A's browser session")
    }
}
