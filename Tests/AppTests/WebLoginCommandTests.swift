import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til login --web` end to end: the real `til` against the server on a loopback port, the
/// code approved through the pages with a browser session's cookie, then the credential file
/// and `til status` saying how the login was obtained.
final class WebLoginCommandTests: XCTestCase {
    func testTilLoginWebStoresTheApprovedPairAndStatusSaysSo() async throws {
        try await withTestApp(.live) { app in
            let home = try Self.configHome()
            defer { try? FileManager.default.removeItem(at: home) }
            // $BROWSER: a script that records the URL it was asked to open.
            let opened = home.appendingPathComponent("opened")
            let browserScript = home.appendingPathComponent("browser.sh")
            try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".utf8).write(to: browserScript)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browserScript.path)
            let server = "http://127.0.0.1:\(app.app.boundPort)"
            var environment = Self.environment(home: home, app: app)
            environment["BROWSER"] = browserScript.path
            async let login = TILServerRun.run(["login", "--web"], environment: environment, timeLimit: .seconds(40), binary: "til")

            let shown = UserCode.display(try await Self.pendingUserCode(app))
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let approved = try await browser.decideDevice(shown, approve: true)
            XCTAssertEqual(approved.status, .ok, approved.bodyString)

            let result = try await login
            XCTAssertEqual(result.status, 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
            XCTAssertEqual(result.stderr, """
                ! First copy your one-time code: \(shown)
                Open this URL in your browser: \(server)/device

                """)
            XCTAssertEqual(
                result.stdout,
                "✓ Logged in to \(server) as admin through the browser (scopes: acronyms:write categories:write users:write account).\n")
            let openedURL = try String(contentsOf: opened, encoding: .utf8)
            XCTAssertEqual(openedURL, "\(server)/device?user_code=\(shown)", "$BROWSER got the page with the code")

            let file = home.appendingPathComponent("til/credentials.json")
            let stored = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            XCTAssertEqual(stored["username"] as? String, "admin")
            let credentials = try XCTUnwrap(stored["credentials"] as? [[String: Any]])
            XCTAssertEqual(credentials.count, 1)
            XCTAssertEqual(credentials.first?["oauthClientID"] as? String, "til-cli")
            let sessionID = try XCTUnwrap(credentials.first?["sessionID"] as? String)
            let kind = try await app.til.db.query("SELECT kind, client_id FROM sessions WHERE id = \(try XCTUnwrap(UUID(uuidString: sessionID)))")
            XCTAssertEqual(try kind.first?.decode(column: "kind", as: String.self), "oauth")
            XCTAssertEqual(try kind.first?.decode(column: "client_id", as: String.self), "til-cli")

            let status = try await TILServerRun.run(["status"], environment: environment, binary: "til")
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertTrue(status.stdout.contains("User:    admin"), status.stdout)
            XCTAssertTrue(status.stdout.contains("web (til-cli)"), status.stdout)
            let json = try await TILServerRun.run(["status", "--json"], environment: environment, binary: "til")
            let tokens = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["tokens"] as? [[String: Any]]
            XCTAssertEqual(tokens?.first?["obtainedBy"] as? String, "web")
            let created = try await TILServerRun.run(["acronyms", "create", "WEB", "Logged in through the browser"], environment: environment, binary: "til")
            XCTAssertEqual(created.status, 0, created.stderr)

            // The password login still works, and says so.
            let password = try await TILServerRun.run(
                ["login", "--username", "admin", "--password-stdin", "--scope", "account"], environment: environment, input: "password\n", binary: "til")
            XCTAssertEqual(password.status, 0, password.stderr)
            let both = try await TILServerRun.run(["status"], environment: environment, binary: "til")
            XCTAssertTrue(both.stdout.contains("password") && both.stdout.contains("web (til-cli)"), both.stdout)
            let logout = try await TILServerRun.run(["logout"], environment: environment, binary: "til")
            XCTAssertEqual(logout.status, 0, logout.stderr)
            let live = try await app.number("SELECT count(*) AS n FROM sessions WHERE revoked_at IS NULL AND kind IN ('oauth', 'login')")
            XCTAssertEqual(live, 0, "logout ended the web login too")
        }
    }

    /// A config folder of the test's own, where `til` keeps its credentials.
    private static func configHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("til-web-login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// `til`'s whole environment: nothing inherited, the config folder, the server on loopback.
    private static func environment(home: URL, app: TestApp) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.path, "TIL_SERVER": "http://127.0.0.1:\(app.app.boundPort)"]
    }

    /// The user code `til` is waiting on, once it is stored: what the person reads off the
    /// terminal. Looked for every 25 ms, for at most ten seconds (the child process has no
    /// other way to say it started).
    private static func pendingUserCode(_ app: TestApp) async throws -> String {
        for _ in 0..<400 {
            let rows = try await app.til.db.query("SELECT user_code FROM oauth_device_codes WHERE client_id = 'til-cli' AND status = 'pending'")
            if let code = try rows.first?.decode(column: "user_code", as: String.self) { return code }
            try await Task.sleep(for: .milliseconds(25))
        }
        XCTFail("til never asked for a code within ten seconds")
        throw CancellationError()
    }

    /// Denied in the browser: `til` says so and exits 2, storing nothing.
    func testADeniedWebLoginExitsTwoAndStoresNothing() async throws {
        try await withTestApp(.live) { app in
            let home = try Self.configHome()
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = Self.environment(home: home, app: app)
            async let login = TILServerRun.run(["login", "--web"], environment: environment, timeLimit: .seconds(40), binary: "til")
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let denied = try await browser.decideDevice(try await Self.pendingUserCode(app), approve: false)
            XCTAssertEqual(denied.status, .ok, denied.bodyString)
            let result = try await login
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("til: not authenticated: The login was denied in the browser. Run `til login`.\n"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("til/credentials.json").path))
            let usage = try await TILServerRun.run(["login", "--web", "--username", "admin"], environment: environment, binary: "til")
            XCTAssertEqual(usage.status, 1, "--web takes no --username: \(usage.stderr)")
        }
    }

    /// A refresh of the web login's pair goes to the token endpoint as til-cli (a password
    /// login's refresh door would not take it).
    func testAWebLoginRefreshesAtTheTokenEndpoint() async throws {
        try await withTestApp(.live, settings: ["TOKEN_TTL": "1"]) { app in
            // Signed in before `til` starts this time: the page is ready when the code is.
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            let home = try Self.configHome()
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = Self.environment(home: home, app: app)
            async let login = TILServerRun.run(["login", "--web"], environment: environment, timeLimit: .seconds(40), binary: "til")
            _ = try await browser.decideDevice(try await Self.pendingUserCode(app), approve: true)
            let result = try await login
            XCTAssertEqual(result.status, 0, result.stderr)
            // A one-second access token: the next command refreshes it first (within half its life).
            let me = try await TILServerRun.run(["status"], environment: environment, binary: "til")
            XCTAssertEqual(me.status, 0, me.stderr)
            let refreshed = try await app.number("SELECT count(*) AS n FROM refresh_tokens WHERE parent_id IS NOT NULL")
            XCTAssertGreaterThanOrEqual(refreshed, 1, "renewed at the token endpoint")
        }
    }
}
