import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What the login page refuses: forged or stale forms, fields twice or too long, a `return_to`
/// that leaves the server; and how it reads Unicode usernames.
final class LoginPageInputTests: XCTestCase {
    func testAPostWithoutTheRightCSRFTokenIsA403Page() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "rey", on: app)
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let credentials = ["username": "rey", "password": "password"]
            var cases: [(String, TestResponse)] = []
            cases.append(("a wrong token", try await browser.submit(form, credentials.merging(["csrf_token": String(repeating: "0", count: 64)]) { $1 })))
            cases.append(("no token", try await browser.post("/login", [("username", "rey"), ("password", "password")])))
            let cookie = browser.cookies["til_login"]
            browser.setCookie("til_login", nil)
            cases.append(("no pre-login cookie", try await browser.submit(form, credentials)))
            browser.setCookie("til_login", SecureRandom.token())
            cases.append(("another browser's cookie", try await browser.submit(form, credentials)))
            browser.setCookie("til_login", cookie)
            for (name, answer) in cases {
                XCTAssertEqual(answer.status, .forbidden, name)
                answer.assertPageHeaders()
                XCTAssertTrue(answer.bodyString.contains(#"role="alert""#), name)
                XCTAssertNil(browser.cookies["til_session"], name)
            }
            let failures = try await app.til.db.query("SELECT count(*) AS n FROM login_failures")
            XCTAssertEqual(try failures[0].decode(column: "n", as: Int64.self), 0, "a forged form checks no password")
            let genuine = try await browser.submit(form, credentials)
            XCTAssertEqual(genuine.status, .seeOther, "the page's own token still works")
        }
    }

    func testFieldsTwiceTooLongOrMissingAndOtherBodiesAre400() async throws {
        try await withTestApp { app in
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let token = try XCTUnwrap(form.value("csrf_token"))
            let twice = try await browser.post("/login", [("csrf_token", token), ("username", "a"), ("username", "b"), ("password", "x")])
            XCTAssertEqual(twice.status, .badRequest)
            XCTAssertTrue(twice.bodyString.contains("more than once"))
            let long = try await browser.post("/login", [("csrf_token", token), ("username", String(repeating: "u", count: 1025)), ("password", "x")])
            XCTAssertEqual(long.status, .badRequest)
            let longPassword = try await browser.post("/login", [("csrf_token", token), ("username", "u"), ("password", String(repeating: "p", count: 1025))])
            XCTAssertEqual(longPassword.status, .badRequest)
            let missing = try await browser.post("/login", [("csrf_token", token), ("username", "u")])
            XCTAssertEqual(missing.status, .badRequest)
            XCTAssertTrue(missing.bodyString.contains("Enter your username and your password."))
            XCTAssertTrue(missing.bodyString.contains(#"role="alert""#))
            let json = try await browser.send(.post, "/login", body: Array(#"{"username":"u"}"#.utf8), contentType: "application/json")
            XCTAssertEqual(json.status, .badRequest)
            json.assertPageHeaders()
            let tokenTwice = try await browser.post("/login", [("csrf_token", token), ("csrf_token", token), ("username", "u"), ("password", "p")])
            XCTAssertEqual(tokenTwice.status, .badRequest)
        }
    }

    func testReturnToAcceptsOnlyAPathOnThisServer() async throws {
        try await withTestApp { app in
            let browser = BrowserClient(app.client)
            for hostile in [
                "//evil.example/x", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "evil.example",
                "/%0d%0aSet-Cookie:x=1".removingPercentEncoding!, "/a\tb", "/a b", "/a#frag", "/\u{7F}", "/é", "",
                String(repeating: "/a", count: 4097),
            ] {
                let shown = try await browser.get("/login?return_to=" + QueryEncoding.escape(hostile))
                XCTAssertEqual(shown.status, .badRequest, "GET with return_to \(hostile.debugDescription)")
                XCTAssertNil(shown.location)
            }
            _ = try await User.create(username: "finn", on: app)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            for hostile in ["//evil.example", "/\\evil.example", "https://evil.example/"] {
                let posted = try await browser.submit(form, ["username": "finn", "password": "password", "return_to": hostile])
                XCTAssertEqual(posted.status, .badRequest, "POST with return_to \(hostile)")
                XCTAssertNil(posted.location)
                XCTAssertNil(browser.cookies["til_session"], "no session for a refused form")
            }
        }
    }

    func testUsernamesInNFCAndNFDSignInToTheSameAccountAndNamesAreEscaped() async throws {
        try await withTestApp { app in
            let nfc = "Zoë", nfd = "Zoe\u{0308}"
            XCTAssertNotEqual(Array(nfc.utf8), Array(nfd.utf8))
            let user = try await User.create(name: "<b>Zoë</b>", username: nfc, on: app)
            for spelling in [nfc, nfd, "zoë".uppercased()] {
                let browser = BrowserClient(app.client)
                let answer = try await browser.signIn(spelling)
                XCTAssertEqual(answer.status, .seeOther, "signing in as \(Array(spelling.unicodeScalars))")
                let signedIn = try await browser.get("/login")
                XCTAssertTrue(signedIn.bodyString.contains(nfc), "the account's own spelling is shown")
            }
            let sessions = try await app.til.db.query("SELECT count(*) AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'browser'")
            XCTAssertEqual(try sessions[0].decode(column: "n", as: Int64.self), 3)
            // A username typed with markup comes back escaped in the form, never as markup.
            let browser = BrowserClient(app.client)
            let answer = try await browser.signIn(#""><script>alert(1)</script>"#, "wrong")
            XCTAssertFalse(answer.bodyString.contains("<script>"))
            XCTAssertTrue(answer.bodyString.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
            XCTAssertEqual(try HTMLForm.only(in: answer).value("username"), #""><script>alert(1)</script>"#)
        }
    }

    func testTheSameFormPostedTwiceAtOnceGivesTwoSeparateSessions() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "poe", on: app)
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let headers: HTTPHeaders = ["Cookie": "til_login=\(browser.cookies["til_login"]!)", "Content-Type": "application/x-www-form-urlencoded"]
            let body = Array(QueryEncoding.encode(form.fields.map { ($0.name, $0.name == "username" ? "poe" : $0.name == "password" ? "password" : $0.value) }).utf8)
            let client = app.client
            async let first = client.send(.post, "/login", headers: headers, body: body)
            async let second = client.send(.post, "/login", headers: headers, body: body)
            let answers = try await [first, second]
            XCTAssertEqual(answers.map(\.status), [.seeOther, .seeOther])
            let cookies = answers.compactMap { $0.headers.values(for: "Set-Cookie").first { $0.hasPrefix("til_session=") } }
            XCTAssertEqual(Set(cookies).count, 2, "each login its own new session value")
            let rows = try await app.til.db.query("SELECT count(DISTINCT id) AS n FROM sessions WHERE user_id = \(user.id) AND revoked_at IS NULL")
            XCTAssertEqual(try rows[0].decode(column: "n", as: Int64.self), 2)
        }
    }

    /// As `LoginQueueTests` for Basic logins: twelve form logins at once at cost 10 find the one
    /// waiting place taken, and the refused ones get a 503 page with `Retry-After`.
    func testALoginQueueThatIsFullAnswersA503PageWithRetryAfter() async throws {
        // Every attempt counts until its password proves right, so 12 at once on one account
        // would pass the account backoff's threshold (10) and draw a 429: lifted, like the pair's.
        let settings = [
            "BCRYPT_COST": "10", "LOGIN_QUEUE_LIMIT": "1", "LOGIN_MAX_WAIT": "30", "LOGIN_MAX_FAILURES": "100",
            "LOGIN_ACCOUNT_BACKOFF_THRESHOLD": "100",
        ]
        try await withTestApp(settings: settings) { app in
            let browser = BrowserClient(app.client)
            let form = try HTMLForm.only(in: try await browser.get("/login"))
            let headers: HTTPHeaders = ["Cookie": "til_login=\(browser.cookies["til_login"]!)", "Content-Type": "application/x-www-form-urlencoded"]
            let body = Array(QueryEncoding.encode([("csrf_token", form.value("csrf_token")!), ("username", "admin"), ("password", "password")]).utf8)
            let client = app.client
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<12 { group.addTask { try await client.send(.post, "/login", headers: headers, body: body) } }
                var answers: [TestResponse] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
            let statuses = answers.map(\.status.code)
            XCTAssertTrue(statuses.allSatisfy { $0 == 303 || $0 == 503 }, "\(statuses)")
            let refused = answers.filter { $0.status.code == 503 }
            XCTAssertGreaterThanOrEqual(refused.count, 1, "\(statuses)")
            for answer in refused {
                answer.assertPageHeaders()
                XCTAssertGreaterThanOrEqual(answer.headers["Retry-After"].flatMap { Int($0) } ?? 0, 1)
                XCTAssertTrue(answer.bodyString.contains(#"role="alert""#))
            }
        }
    }

    func testTheThrottleAnswersThePageWith429AndRetryAfter() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "2"]) { app in
            _ = try await User.create(username: "r2d2", on: app)
            let browser = BrowserClient(app.client)
            for _ in 1...2 { _ = try await browser.signIn("r2d2", "wrong") }
            let refused = try await browser.signIn("r2d2")
            XCTAssertEqual(refused.status, .tooManyRequests)
            XCTAssertNotNil(refused.headers["Retry-After"])
            XCTAssertTrue(refused.bodyString.contains("Too many failed attempts"))
            XCTAssertNil(browser.cookies["til_session"])
        }
    }

    /// libpq cuts a bound value at a NUL: `admin\0x` would be looked up as `admin`. Every form
    /// reader refuses it, as the query and Basic credentials are refused before routing.
    func testAFormFieldHoldingANULIsRefusedNotCut() async throws {
        try await withTestApp { app in
            let browser = BrowserClient(app.client)
            let refused = try await browser.signIn("admin\u{0}x", "password")
            XCTAssertEqual(refused.status, .badRequest, refused.bodyString)
            XCTAssertNil(browser.cookies["til_session"], "no session for the cut name")
            let authorization = try await browser.post("/oauth/authorize", [("response_type", "code"), ("client_id", "x\u{0}y")])
            XCTAssertEqual(authorization.status, .badRequest, authorization.bodyString)
            let sessions = try await app.number("SELECT count(*) AS n FROM sessions WHERE kind = 'browser'")
            XCTAssertEqual(sessions, 0)
        }
    }
}
