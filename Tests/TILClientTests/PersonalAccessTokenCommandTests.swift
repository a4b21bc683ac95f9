import Foundation
import TILClient
import WebTesting
import XCTest

/// `til tokens create|list|revoke`, a personal access token in `TIL_TOKEN`, and TILClient's
/// `tokens` API and personal-access-token client.
final class PersonalAccessTokenCommandTests: XCTestCase {
    static let loginOnlyCommands: [[String]] = [
        ["sessions"], ["sessions", "end", UUID().uuidString], ["logout"], ["logout", "--all"], ["password", "--password-stdin"], ["reauth"],
        ["email", "set", "new@example.com", "--password-stdin"], ["email", "resend"],
        ["mfa"], ["mfa", "enable"], ["mfa", "disable"], ["mfa", "recovery-codes"], ["passkeys"], ["passkeys", "remove", UUID().uuidString],
        ["tokens"], ["tokens", "list"], ["tokens", "create", "x", "--expires-in", "1d"], ["tokens", "revoke", UUID().uuidString],
    ]

    func testAScriptMakesUsesListsAndRevokesAToken() async throws {
        try await LiveServer.run { server in
            let (til, user, _) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }

            let created = try await til.run("tokens", "create", "CI deploys", "--scope", "acronyms:write", "--expires-in", "30d")
            XCTAssertEqual(created.status, 0, created.stderr)
            let token = created.stdout.trimmingCharacters(in: .newlines)
            XCTAssertNotNil(token.wholeMatch(of: /til_pat_[A-Za-z0-9_-]{43}/), "stdout is the token alone: \(created.stdout)")
            XCTAssertTrue(created.stderr.contains("Created personal access token 'CI deploys'"), created.stderr)
            XCTAssertTrue(created.stderr.contains("it is not shown again"), created.stderr)

            let listed = try await til.run("tokens", "list", "--json").json([PersonalAccessToken].self)
            XCTAssertEqual(listed.map(\.name), ["CI deploys"])
            XCTAssertEqual(listed.first?.scopes, [.acronymsWrite])
            let lifetime = try XCTUnwrap(listed.first).expiresAt.timeIntervalSince(try XCTUnwrap(listed.first).createdAt)
            XCTAssertEqual(lifetime, 30 * 86400, accuracy: 1)
            let table = try await til.run("tokens")
            XCTAssertTrue(table.stdout.hasPrefix("ID "), table.stdout)
            XCTAssertTrue(table.stdout.contains("never"), "not used yet: \(table.stdout)")
            XCTAssertFalse(table.stdout.contains(token))

            // The token as TIL_TOKEN: every command its scopes allow.
            let environment = ["TIL_TOKEN": token]
            let acronym = try await til.run("acronyms", "create", "PAT", "Personal access token", "--json", environment: environment)
            XCTAssertEqual(try acronym.json(Acronym.self).user.id, user.id)
            let status = try await til.run("status", environment: environment)
            XCTAssertTrue(status.stdout.contains("Token:   a personal access token from TIL_TOKEN"), status.stdout)
            let outOfScope = try await til.run("categories", "create", "Nope", environment: environment)
            assertFails(outOfScope, status: 4,
                        stderrPrefix: "til: This token lacks the 'categories:write' scope. (403)")

            let revoked = try await til.run("tokens", "revoke", try XCTUnwrap(listed.first).id.uuidString)
            XCTAssertEqual(revoked.stdout, "Revoked personal access token \(try XCTUnwrap(listed.first).id.uuidString).\n")
            let afterRevocation = try await til.run("acronyms", "create", "A", "B", environment: environment)
            assertFails(afterRevocation, status: 2,
                        stderrPrefix: "til: not authenticated: The access token is unknown or revoked.")
            let revokedTwice = try await til.run("tokens", "revoke", try XCTUnwrap(listed.first).id.uuidString)
            assertFails(revokedTwice, status: 3,
                        stderrPrefix: "til: No live personal access token of yours has that id. (404)")
        }
    }

    /// With a personal access token in TIL_TOKEN, the commands that manage the account stop
    /// before any request: here the server does not even exist.
    func testLoginOnlyCommandsRefuseAPersonalAccessTokenBeforeAnyRequest() async throws {
        let til = try CommandLine(server: URL(string: "http://127.0.0.1:1")!)
        defer { til.removeConfig() }
        let environment = ["TIL_TOKEN": "til_pat_" + String(repeating: "A", count: 43)]
        for command in Self.loginOnlyCommands {
            let refused = try await til.run(command, stdin: "old\nnew\n", environment: environment)
            assertFails(refused, status: 2,
                        stderrPrefix: "til: needs a login, not a personal access token: unset TIL_TOKEN and run `til login`.")
        }
        // A command its scopes might allow goes to the server (unreachable here: exit 4).
        let read = try await til.run("acronyms", "create", "A", "B", environment: environment)
        XCTAssertEqual(read.status, 4, read.stderr)
        XCTAssertTrue(read.stderr.hasPrefix("til: cannot reach the server"), read.stderr)
    }

    func testLifetimesTheCommandTakesAndRefuses() async throws {
        try await LiveServer.run(settings: ["PAT_MAX_TTL": "86400"]) { server in
            let (til, _, _) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            for text in ["0", "-1d", "3x", "d", "1.5h", "9999999999999999999d", "３０d"] {
                let refused = try await til.run("tokens", "create", "t", "--expires-in=\(text)")
                assertFails(refused, status: 1, stderrPrefix: "til: The value '\(text)' is invalid for '--expires-in <expires-in>'")
                XCTAssertTrue(refused.stderr.contains("'\(text)' is not a lifetime: use 30d, 12h, 45m or a number of seconds."), refused.stderr)
            }
            let tooLong = try await til.run("tokens", "create", "t", "--expires-in", "2d")
            assertFails(tooLong, status: 4,
                        stderrPrefix: "til: 'expiresIn' must be a whole number of seconds from 1 to 86400. (400)")
            for text in ["1d", "24h", "90m", "3600s", "60"] {
                let made = try await til.run("tokens", "create", "t \(text)", "--expires-in", text, "--json")
                XCTAssertEqual(made.status, 0, "\(text): \(made.stderr)")
                XCTAssertTrue(try made.json(NewPersonalAccessToken.self).token.hasPrefix("til_pat_"))
            }
        }
    }

    /// TILClient: `tokens` from a login, then a client holding the token, for which the
    /// account's routes throw `needsLogin` (the server's 403, read).
    func testTheClientAPIAndAPersonalAccessTokenClient() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let client = server.client()
            try await client.login(username: user.username, password: password)
            let made = try await client.tokens.create(name: "Zoë's script", scopes: [.acronymsWrite, .categoriesWrite], expiresIn: .seconds(3600))
            XCTAssertEqual(made.scopes, [.acronymsWrite, .categoriesWrite])
            let holder = APIClient(server: server.url, personalAccessToken: made.token)
            let me = try await holder.me()
            XCTAssertEqual(me.id, user.id)
            _ = try await holder.categories.create(name: "From a token \(UUID().uuidString.prefix(6))")
            do {
                _ = try await holder.account.sessions()
                XCTFail("a personal access token listed sessions")
            } catch let error as TILError {
                XCTAssertEqual(error, .needsLogin)
                XCTAssertEqual(error.description, "needs a login, not a personal access token")
            }
            let listed = try await client.tokens.list()
            XCTAssertEqual(listed.map(\.id), [made.id])
            XCTAssertNotNil(listed.first?.lastUsedAt, "the holder's use is listed")
            try await client.tokens.revoke(made.id)
            do {
                _ = try await holder.me()
                XCTFail("a revoked token still worked")
            } catch TILError.notAuthenticated {}
        }
    }
}
