import Foundation
import TILClient
import WebTesting
import XCTest

/// The `til` tool end to end, as a script and as a person at a terminal would use it.
final class CommandLineTests: XCTestCase {
    func testAScriptedSessionFromLoginToLogout() async throws {
        try await LiveServer.run(settings: ["COMMON_PASSWORD_CHECK": "off"]) { server in
            let (user, password) = try await server.makeUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }

            let login = try await til.run("login", "--username", user.username, "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(login.status, 0, login.stderr)
            XCTAssertTrue(login.stdout.hasPrefix("Logged in to \(server.url.absoluteString) as \(user.username)"), login.stdout)
            let status = try await til.run("status", "--json")
            XCTAssertEqual(try status.json(StatusAnswer.self).user, user.asPublic)

            let created = try await til.run("acronyms", "create", "OMG", "Oh My God", "--json").json(Acronym.self)
            XCTAssertEqual(created.user.id, user.id)
            let listed = try await til.run("acronyms", "list", "--all", "--json").json([Acronym].self)
            XCTAssertTrue(listed.contains(created))
            let found = try await til.run("acronyms", "search", "Oh My God", "--json").json([Acronym].self)
            XCTAssertTrue(found.contains(created))
            let shown = try await til.run("acronyms", "show", created.id.uuidString)
            XCTAssertEqual(shown.stdout, """
                ID                                    SHORT  LONG       USER
                \(created.id.uuidString)  OMG    Oh My God  \(user.id.uuidString)

                """)

            let category = try await til.run("categories", "create", "Exclaim-\(UUID().uuidString.prefix(6))", "--json").json(TILClient.Category.self)
            let linked = try await til.run("acronyms", "link", created.id.uuidString, category.id.uuidString)
            XCTAssertEqual(linked.status, 0, linked.stderr)
            let inCategory = try await til.run("categories", "acronyms", category.id.uuidString, "--json").json([Acronym].self)
            XCTAssertEqual(inCategory, [created])

            let taken = try await til.run("users", "create", "Someone", user.username, "--password-stdin", stdin: "password\n")
            assertFails(taken, status: 4, stderrPrefix: "til: ")
            XCTAssertTrue(taken.stderr.hasSuffix("(409)\n"), taken.stderr)

            let deleted = try await til.run("acronyms", "delete", created.id.uuidString)
            XCTAssertEqual(deleted.status, 0, deleted.stderr)
            assertFails(try await til.run("acronyms", "show", created.id.uuidString), status: 3,
                        stderrPrefix: "til: No acronym with that id. (404)")

            let logout = try await til.run("logout")
            XCTAssertEqual(logout.stdout, "Logged out.\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: til.credentialsFile.path), "no tokens left on disk")
            let live = try await server.liveSessions(of: user)
            XCTAssertEqual(live, 0)
            assertFails(try await til.run("acronyms", "create", "A", "B"), status: 2, stderrPrefix: "til: not authenticated:")
            assertFails(try await til.run("status"), status: 2, stderrPrefix: "til: not authenticated:")
            assertFails(try await til.run("sessions"), status: 2, stderrPrefix: "til: not authenticated:")
        }
    }

    func testUsageMistakesExitWithOne() async throws {
        let til = try CommandLine(server: URL(string: "http://127.0.0.1:1")!)
        defer { til.removeConfig() }
        assertFails(try await til.run("acronyms", "show", "not-an-id"), status: 1, stderrPrefix: "til: The value 'not-an-id' is invalid")
        assertFails(try await til.run("acronyms", "frobnicate"), status: 1, stderrPrefix: "til: Unexpected argument 'frobnicate'")
        assertFails(try await til.run("acronyms", "list", "--limit", "0"), status: 1, stderrPrefix: "til: --limit must be from 1 to 1000.")
        assertFails(try await til.run("login", "--username", "u"), status: 1, stderrPrefix: "til: No terminal to ask on; use --password-stdin.")
        let help = try await til.run("--help")
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("SUBCOMMANDS:"), help.stdout)
        let completion = try await til.run("--generate-completion-script", "bash")
        XCTAssertEqual(completion.status, 0)
        XCTAssertTrue(completion.stdout.contains("-F _til til"), "bash completion for til")
    }

    func testLimitShowsOnePageAndAllShowsEveryRow() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let client = server.client()
            try await client.login(username: user.username, password: password)
            for short in ["L1", "L2", "L3"] { _ = try await client.acronyms.create(short: short, long: "Limit \(short)") }
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }

            let limited = try await til.run("users", "acronyms", user.id.uuidString, "--limit", "2", "--json")
            XCTAssertEqual(try limited.json([Acronym].self).map(\.short), ["L1", "L2"])
            XCTAssertEqual(limited.stderr, "(the first 2 rows; --all for every row)\n")
            let all = try await til.run("users", "acronyms", user.id.uuidString, "--all", "--limit", "1", "--json")
            XCTAssertEqual(try all.json([Acronym].self).map(\.short), ["L1", "L2", "L3"])
            XCTAssertEqual(all.stderr, "")
        }
    }

    func testTILTokenStandsInForTheStore() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let token = try await server.client().login(username: user.username, password: password)
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }

            let status = try await til.run("status", "--json", environment: ["TIL_TOKEN": token.value])
            let answer = try status.json(StatusAnswer.self)
            XCTAssertEqual(answer.user.id, user.id)
            XCTAssertEqual(answer.tokenSource, "TIL_TOKEN")
            assertFails(try await til.run("status", environment: ["TIL_TOKEN": "not-a-token"]), status: 2,
                        stderrPrefix: "til: not authenticated: The access token is unknown or revoked.")
        }
    }

    func testTwoCommandsStartedTogetherRefreshOnce() async throws {
        // A 3-second token is renewed in its last 1.5 s: long enough that the second process,
        // once it has the lock, finds the first one's pair still fresh on a busy machine.
        try await LiveServer.run(settings: ["TOKEN_TTL": "3"]) { server in
            let (user, password) = try await server.makeUser()
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let login = try await til.run("login", "--username", user.username, "--password-stdin", stdin: password + "\n")
            XCTAssertEqual(login.status, 0, login.stderr)

            for round in 1...2 {
                try await pause(3.2)
                async let first = til.run("status", "--json")
                async let second = til.run("status", "--json")
                let results = try await [first, second]
                for result in results { XCTAssertEqual(result.status, 0, "round \(round): \(result.stderr)") }
                let refreshes = try await server.refreshCount(of: user)
                XCTAssertEqual(refreshes, round, "one refresh per round, whichever process ran it")
            }
            let live = try await server.liveSessions(of: user)
            XCTAssertEqual(live, 1, "no refresh token was presented twice")
        }
    }

    func testThePasswordPromptDoesNotEcho() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 drives the pseudo-terminal") }
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser(password: "typed-at-the-terminal")
            let til = try CommandLine(server: server.url)
            defer { til.removeConfig() }
            let result = try await PseudoTerminal.run(
                til.binary, ["login", "--username", user.username], answers: [("Password: ", password)], environment: til.environment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(result.echoAtPrompts, [false], "echo is off while the password is typed")
            XCTAssertEqual(result.echoAfter, true, "and on again afterwards")
            XCTAssertFalse(result.output.contains(password), result.output)
            XCTAssertTrue(result.output.hasPrefix("Password: \r\nLogged in to"), result.output)
            let me = try await APIClient(server: server.url, store: FileCredentialStore(directory: til.configHome.appendingPathComponent("til"))).me()
            XCTAssertEqual(me.id, user.id, "the prompted login was kept")
        }
    }
}

/// What `til status --json` prints, read as a script would.
private struct StatusAnswer: Decodable {
    var server: String
    var user: PublicUser
    var tokenSource: String
}
