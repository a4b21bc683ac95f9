import AppTesting
import Foundation
import Glibc
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til login --browser` end to end: the real `til` against the server on a loopback port, its
/// `$BROWSER` a script that records the URL it is asked to open; the test is the browser — it
/// walks the pages (`BrowserClient`) and then calls the redirect URI, the one-shot listener,
/// over a real socket, well-formed or not.
final class BrowserLoginCommandTests: XCTestCase {
    func testTilLoginBrowserCatchesTheRedirectOnLoopbackAndStoresThePair() async throws {
        try await BrowserLoginRun.with { app, run in
            async let login = run.start()
            let (url, query, port) = try await run.opened()
            XCTAssertEqual(query["redirect_uri"], "http://127.0.0.1:\(port)/callback")
            XCTAssertNotEqual(port, 0, "an ephemeral port the system chose")
            XCTAssertEqual(query["client_id"], "til-cli")
            XCTAssertEqual(query["code_challenge_method"], "S256")

            let callback = try await BrowserClient(app.client).authorize(url, as: "admin")
            let page = try Self.get(callback, port: port)
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(page.bodyString.contains("You may close this window"), page.bodyString)
            XCTAssertEqual(page.headers["Cache-Control"], "no-store")
            XCTAssertEqual(page.headers["Referrer-Policy"], "no-referrer", "the address held the code")

            let result = try await login
            XCTAssertEqual(result.status, 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
            XCTAssertEqual(result.stdout, "✓ Logged in to \(run.server) as admin in the browser (scopes: acronyms:write categories:write users:write account).\n")
            XCTAssertEqual(result.stderr, """
                Sign in in your browser: \(url.absoluteString)
                Waiting for the browser at http://127.0.0.1:\(port)/callback ...

                """)
            // One shot: nobody listens any more.
            XCTAssertThrowsError(try RawConnection(port: port), "the listener closed after the answer")

            let stored = try run.storedCredentials()
            XCTAssertEqual(stored.count, 1)
            XCTAssertEqual(stored.first?["signIn"] as? String, "browser")
            XCTAssertEqual(stored.first?["oauthClientID"] as? String, "til-cli")
            let status = try await run.til(["status"])
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertTrue(status.stdout.contains("browser (til-cli)"), status.stdout)
            let json = try await run.til(["status", "--json"])
            let tokens = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["tokens"] as? [[String: Any]]
            XCTAssertEqual(tokens?.first?["obtainedBy"] as? String, "browser")
            let created = try await run.til(["acronyms", "create", "RFC", "Request for Comments"])
            XCTAssertEqual(created.status, 0, created.stderr)
        }
    }

    /// Bad input to the listener: each is refused with a 4xx and the listener keeps waiting;
    /// the real answer after them still signs in.
    func testTheListenerRefusesAnythingButItsOwnCallbackAndKeepsWaiting() async throws {
        try await BrowserLoginRun.with { app, run in
            async let login = run.start()
            let (url, _, port) = try await run.opened()
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let refusals: [(String, [UInt8], HTTPStatus)] = [
                ("garbage", [0x16, 0x03, 0x01, 0x00, 0xFF] + Array("\r\n\r\n".utf8), .badRequest),
                ("not HTTP", Array("HELLO\r\n\r\n".utf8), .badRequest),
                ("a POST", Array("POST /callback?code=x HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n".utf8), .methodNotAllowed),
                ("another path", Array("GET /favicon.ico HTTP/1.1\r\n\(host)\r\n".utf8), .notFound),
                ("another Host (DNS rebinding)", Array("GET /callback?code=x HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n".utf8), .badRequest),
                ("no Host", Array("GET /callback?code=x HTTP/1.1\r\n\r\n".utf8), .badRequest),
                ("two Hosts", Array("GET /callback?code=x HTTP/1.1\r\n\(host)\(host)\r\n".utf8), .badRequest),
                ("a head over 8 KiB", Array("GET /callback?code=\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n\(host)\r\n".utf8), .badRequest),
                ("HTTP/2 preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), .badRequest),
            ]
            for (name, bytes, status) in refusals {
                let connection = try RawConnection(port: port)
                try connection.write(bytes)
                let answer = try connection.readResponse()
                XCTAssertEqual(answer.status, status, name)
                XCTAssertEqual(answer.headers["Connection"], "close", name)
            }
            // A client that stops half-way is answered and let go.
            let halfway = try RawConnection(port: port)
            try halfway.write("GET /callback?code=")
            halfway.shutdownWrite()
            XCTAssertEqual(try halfway.readResponse().status, .badRequest)

            // A client that connects and says nothing holds the listener 5 s at most; the
            // browser, queued behind it, is answered after.
            let connected = ContinuousClock.now
            let silent = try RawConnection(port: port)
            let callback = try await BrowserClient(app.client).authorize(url, as: "admin")
            XCTAssertEqual(try Self.get(callback, port: port).status, .ok)
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - connected, .seconds(5), "served after the silent one was let go")
            XCTAssertEqual(try silent.readResponse().status, .badRequest)
            let result = try await login
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try run.storedCredentials().count, 1)
        }
    }

    func testNoAnswerInTimeAForgedAnswerAndARefusalEachFailClearly() async throws {
        try await withTestApp(.live) { app in
            // Nobody comes back.
            let silent = try BrowserLoginRun(app)
            defer { silent.remove() }
            let timedOut = try await silent.start(["--browser-timeout", "1"])
            XCTAssertEqual(timedOut.status, 4, timedOut.stderr)
            XCTAssertTrue(timedOut.stderr.hasSuffix(
                "til: sign-in failed (no_callback): the browser did not come back in time; run `til login --browser` again\n"), timedOut.stderr)
            XCTAssertEqual(timedOut.stdout, "")
            XCTAssertThrowsError(try silent.storedCredentials(), "nothing stored")

            // An answer with another state (a forged or stale redirect), then the server's refusal.
            for (name, answer, expected) in [
                ("forged", { (state: String, iss: String) in "code=stolen&state=\(state)x&iss=\(iss)" },
                 "til: sign-in failed (invalid_callback): The callback's state is not this sign-in's"),
                ("denied", { (state: String, iss: String) in "error=access_denied&error_description=The+user+said+no&state=\(state)&iss=\(iss)" },
                 "til: sign-in failed (access_denied): The user said no"),
            ] {
                let run = try BrowserLoginRun(app)
                defer { run.remove() }
                async let login = run.start()
                let (_, query, port) = try await run.opened()
                let iss = run.server.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let callback = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/callback?" + answer(try XCTUnwrap(query["state"]), iss)))
                XCTAssertEqual(try Self.get(callback, port: port).status, .ok, name)
                let result = try await login
                XCTAssertEqual(result.status, 4, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.split(separator: "\n").last?.hasPrefix(expected) ?? false, "\(name): \(result.stderr)")
                XCTAssertThrowsError(try run.storedCredentials(), "\(name): nothing stored")
            }
        }
    }

    func testBrowserTakesNoPasswordOptions() async throws {
        try await BrowserLoginRun.with { app, run in
            for arguments in [["--web"], ["--username", "admin"], ["--password-stdin"], ["--browser-timeout", "0"]] {
                let result = try await run.start(arguments)
                XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("--browser"), result.stderr)
            }
        }
    }

    /// `callback` asked of the listener on `port` as a browser asks it: one GET, its own Host.
    static func get(_ callback: URL, port: Int) throws -> TestResponse {
        let components = try XCTUnwrap(URLComponents(url: callback, resolvingAgainstBaseURL: false))
        let connection = try RawConnection(port: port)
        try connection.write("GET \(components.percentEncodedPath)?\(components.percentEncodedQuery ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: test-browser\r\n\r\n")
        return try connection.readResponse()
    }

}

/// One `til login --browser` of a test: its own config folder, and a `$BROWSER` script that
/// writes the URL it was given to a file.
struct BrowserLoginRun {
    let home: URL
    let server: String
    let environment: [String: String]
    private var opened: URL { home.appendingPathComponent("opened") }

    init(_ app: TestApp) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("til-browser-login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let script = home.appendingPathComponent("browser.sh")
        try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(home.path)/opened.tmp' && mv '\(home.path)/opened.tmp' '\(home.path)/opened'\n".utf8)
            .write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        server = "http://127.0.0.1:\(app.app.boundPort)"
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.path, "TIL_SERVER": server, "BROWSER": script.path,
        ]
    }

    /// Runs `body` with a live app and a run set up for it, removed afterwards.
    static func with(_ body: (TestApp, BrowserLoginRun) async throws -> Void) async throws {
        try await withTestApp(.live) { app in
            let run = try BrowserLoginRun(app)
            defer { run.remove() }
            try await body(app, run)
        }
    }

    /// `til login --browser arguments...`, to its end.
    func start(_ arguments: [String] = []) async throws -> TILServerRun {
        try await til(["login", "--browser"] + arguments)
    }

    func til(_ arguments: [String]) async throws -> TILServerRun {
        try await TILServerRun.run(arguments, environment: environment, timeLimit: .seconds(40), binary: "til")
    }

    /// The URL `$BROWSER` was asked to open, once it has been (written whole, then renamed),
    /// its query, and the port of the redirect URI in it: the listener's.
    func opened() async throws -> (url: URL, query: [String: String], port: Int) {
        let file = opened
        let written = await eventually(within: .seconds(20)) { FileManager.default.fileExists(atPath: file.path) }
        XCTAssertTrue(written, "til never opened the browser")
        let url = try XCTUnwrap(URL(string: try String(contentsOf: file, encoding: .utf8)))
        let items = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        return (url, query, try XCTUnwrap(URL(string: query["redirect_uri"] ?? "")?.port))
    }

    /// The credentials `til` stored, as JSON objects; throws when there is no file.
    func storedCredentials() throws -> [[String: Any]] {
        let data = try Data(contentsOf: home.appendingPathComponent("til/credentials.json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])["credentials"] as? [[String: Any]] ?? []
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)
    }
}
