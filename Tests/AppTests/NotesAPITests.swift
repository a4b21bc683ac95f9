import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 19, "a second API that trusts TIL": the example resource server (`notes-api`) takes
/// TIL's tokens by introspection. One sign-in at TIL buys a token for TIL's API and one for the
/// notes API; each works only where it is for; scopes, revocation and expiry hold there too.
final class NotesAPITests: XCTestCase {
    func testOneSignInGetsATokenForTILsAPIAndOneForTheNotesAPIEachRefusedByTheOther() async throws {
        try await NotesAPIHarness.run(cacheSeconds: 5, failed: { self.hasFailed }) { notes in
            let app = notes.app
            _ = try await User.create(username: "leia", on: app)
            let client = try await StoredClient.create(scope: ["acronyms:write", "notes:read", "notes:write"], on: app)
            let browser = BrowserClient(app.client)

            // One sign-in and one consent; the authorization request names both resources.
            let pkce = PKCEPair()
            let first = AuthorizationFlowTests.authorize(
                client, pkce, scope: "acronyms:write notes:read notes:write", [("resource", notes.tilAPI), ("resource", notes.resource)])
            let loginPage = try await browser.get(first)
            let signedIn = try await browser.submit(try HTMLForm.only(in: loginPage), ["username": "leia", "password": "password"])
            let consent = try await browser.get(try XCTUnwrap(signedIn.location))
            for scope in ["notes:read", "notes:write"] {
                XCTAssertTrue(
                    consent.bodyString.contains("\(scope)&#39; at \(notes.resource)"),
                    "the user sees where: \(consent.bodyString)")
            }
            let approved = try await browser.submit(try HTMLForm.only(in: consent), clicking: ("decision", "approve"))
            let tilAnswer = try await redeem(try XCTUnwrap(try approved.redirectQuery()["code"]), pkce, client, resource: notes.tilAPI, app)
            XCTAssertEqual(tilAnswer["scope"] as? String, "acronyms:write")
            let tilToken = try XCTUnwrap(tilAnswer["access_token"] as? String)

            // The token for the notes API: the same browser session, no page (prompt=none).
            let silent = PKCEPair()
            let second = AuthorizationFlowTests.authorize(
                client, silent, scope: "notes:read notes:write", [("resource", notes.resource), ("prompt", "none")])
            let silentAnswer = try await browser.get(second)
            let code = try XCTUnwrap(try silentAnswer.redirectQuery()["code"], "no sign-in, no consent asked again")
            let notesAnswer = try await redeem(code, silent, client, resource: notes.resource, app)
            XCTAssertEqual(notesAnswer["scope"] as? String, "notes:read notes:write")
            let notesToken = try XCTUnwrap(notesAnswer["access_token"] as? String)

            // TIL's token works at TIL and is refused by the notes API (its aud is TIL's API).
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(tilToken))
            XCTAssertEqual(me.status.code, 200, me.bodyString)
            notes.assertInvalidToken(try await notes.listNotes(tilToken), "TIL's token at the notes API")
            // The notes token works at the notes API and is refused by TIL's.
            let none = try await notes.listNotes(notesToken)
            XCTAssertEqual(none.bodyString, "[]")
            let added = try await notes.addNote("Tokens work beyond TIL's own routes", notesToken)
            XCTAssertEqual(added.status.code, 201, added.bodyString)
            let listed = try await notes.listNotes(notesToken)
            XCTAssertEqual(listed.status.code, 200)
            XCTAssertTrue(listed.bodyString.contains("Tokens work beyond TIL's own routes"), listed.bodyString)
            assertInvalidToken(try await app.client.send(.get, "/api/users/me", auth: .bearer(notesToken)), "the notes token at TIL")

            // A narrowed token (notes:read only) reads but may not write: 403 naming the scope.
            let refresh = try XCTUnwrap(notesAnswer["refresh_token"] as? String)
            let narrowed = try await app.client.postForm("/oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("scope", "notes:read"), ("resource", notes.resource),
                ("client_id", client.id),
            ])
            let readOnly = try XCTUnwrap(try narrowed.jsonObject()["access_token"] as? String, narrowed.bodyString)
            let read = try await notes.listNotes(readOnly)
            XCTAssertEqual(read.status.code, 200)
            let refused = try await notes.addNote("no", readOnly)
            XCTAssertEqual(refused.status.code, 403, refused.bodyString)
            let challenge = refused.headers["WWW-Authenticate"] ?? ""
            XCTAssertTrue(challenge.hasPrefix(#"Bearer realm="notes", error="insufficient_scope", scope="notes:write""#), challenge)
            notes.assertNamesMetadata(challenge, "403")
        }
    }

    /// RFC 9728: the notes API names TIL and its scopes; TIL's metadata names the introspection
    /// endpoint the notes API found by itself. Every refusal here is a clean 401 or 400.
    func testTheMetadataAndBadInputAreAnsweredCleanly() async throws {
        try await NotesAPIHarness.run(cacheSeconds: 5, failed: { self.hasFailed }) { notes in
            let metadata = try await notes.notes.client.send(.get, "/.well-known/oauth-protected-resource").jsonObject()
            XCTAssertEqual(metadata["resource"] as? String, notes.resource)
            XCTAssertEqual(metadata["authorization_servers"] as? [String], [notes.issuer])
            XCTAssertEqual(metadata["scopes_supported"] as? [String], ["notes:read", "notes:write"])
            XCTAssertEqual(metadata["bearer_methods_supported"] as? [String], ["header"])

            let missing = try await notes.notes.client.send(.get, "/notes")
            XCTAssertEqual(missing.status.code, 401)
            let plain = missing.headers["WWW-Authenticate"] ?? ""
            XCTAssertTrue(plain.hasPrefix(#"Bearer realm="notes", resource_metadata=""#), "no error code without a token: \(plain)")
            notes.assertNamesMetadata(plain, "no token")
            for (label, token) in [
                ("garbage", "not-a-token"), ("oversized", String(repeating: "x", count: 600)), ("unicode", "tökén-ü"),
                ("empty", ""), ("another client's secret", try XCTUnwrap(notes.notesClient.secret)),
            ] {
                let response = try await notes.notes.client.send(.get, "/notes", headers: ["Authorization": "Bearer \(token)"])
                notes.assertInvalidToken(response, label)
            }
            // A header far beyond the server's limits: refused by the HTTP layer, the server lives on.
            let hugeHeader = "Bearer " + String(repeating: "a", count: 100_000)
            let huge = try await notes.notes.client.send(.get, "/notes", headers: ["Authorization": hugeHeader])
            XCTAssertTrue([400, 431].contains(huge.status.code), "\(huge.status.code) \(huge.bodyString)")
            let token = try await notes.clientToken(scope: "notes:read notes:write")
            let badBodies: [(String, [UInt8], String?)] = [
                ("not JSON", Array("text=hi".utf8), "application/x-www-form-urlencoded"), ("empty", [], "application/json"),
                ("no text", Array("{}".utf8), "application/json"), ("blank", Array(#"{"text":"  "}"#.utf8), "application/json"),
                ("NUL", Array(#"{"text":"a\u0000b"}"#.utf8), "application/json"),
                ("too long", Array(#"{"text":"\#(String(repeating: "n", count: 1001))"}"#.utf8), "application/json"),
            ]
            for (label, body, type) in badBodies {
                let response = try await notes.notes.client.send(
                    .post, "/notes", headers: type.map { ["Content-Type": $0] } ?? [:], body: body, auth: .bearer(token))
                XCTAssertTrue([400, 415].contains(response.status.code), "\(label): \(response.status.code) \(response.bodyString)")
            }
            // Twenty requests at once with one token nobody has introspected yet: all get in.
            let fresh = try await notes.clientToken()
            let http = notes.notes.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await http.send(.get, "/notes", auth: .bearer(fresh)).status.code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(statuses, Array(repeating: 200, count: 20))
        }
    }

    /// A token revoked at TIL stops working at the notes API within its cache lifetime
    /// (`NOTES_CACHE_SECONDS=1`): the answer cached by the first request ends at most a second
    /// after that request was answered, so every request sent later is refused, however
    /// often it is tried meanwhile. (No margin to tune: only send times are compared.) The
    /// revocation goes to a second til-server process over the same database: the notes API
    /// asks the first, which sees it.
    func testARevokedTokenIsRefusedWithinTheCacheLifetime() async throws {
        try await NotesAPIHarness.run(cacheSeconds: 1, failed: { self.hasFailed }) { notes in
            let resources = ["RESOURCES": "\(notes.resource)=notes:read notes:write"]
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(resources))
            try await other.waitUntilHealthy()
            let token = try await notes.clientToken()
            let accepted = try await notes.listNotes(token)
            let cachedUntilAtMost = ContinuousClock.now + .seconds(1)
            XCTAssertEqual(accepted.status.code, 200, "now cached")
            let revoked = try await other.client.postForm("/oauth/revoke", [("token", token)], auth: notes.notesClient.basic)
            XCTAssertEqual(revoked.status.code, 200)
            await [other].stopAll(showingOutputIf: self.hasFailed)
            var refused: TestResponse?
            while refused == nil, ContinuousClock.now < cachedUntilAtMost + .seconds(10) {
                let sent = ContinuousClock.now
                let response = try await notes.listNotes(token)
                if response.status.code == 200 {
                    XCTAssertLessThan(sent, cachedUntilAtMost, "served from the cache after its lifetime")
                    try await Task.sleep(for: .milliseconds(50))
                } else {
                    refused = response
                }
            }
            notes.assertInvalidToken(try XCTUnwrap(refused, "still accepted 10 s after the cache lifetime"), "revoked")
        }
    }

    /// An answer cached for up to a minute still ends at the token's `exp`: a token that
    /// expires at TIL (`TOKEN_TTL=3`) is refused the moment it has, without a new question.
    func testAnExpiredTokenIsNeverServedFromTheCache() async throws {
        try await NotesAPIHarness.run(cacheSeconds: 60, settings: ["TOKEN_TTL": "3"], failed: { self.hasFailed }) { notes in
            let token = try await notes.clientToken()
            let introspected = try await notes.app.client.postForm("/oauth/introspect", [("token", token)], auth: notes.notesClient.basic)
            let exp = try XCTUnwrap(try introspected.jsonObject()["exp"] as? Int)
            let accepted = try await notes.listNotes(token)
            XCTAssertEqual(accepted.status.code, 200, "cached until exp")
            let wait = Date(timeIntervalSince1970: TimeInterval(exp)).timeIntervalSinceNow + 0.1
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
            notes.assertInvalidToken(try await notes.listNotes(token), "expired")
        }
    }

    /// A bad setting ends notes-api with 78 (EX_CONFIG) and a line naming it; a port in use
    /// with 1 and a line: never a crash report. Neither needs TIL (discovery waits for a token).
    func testBadSettingsAndABusyPortEndTheProcessWithALineNotACrash() async throws {
        let port = try ServerProcess.freePort()
        let good = [
            "NOTES_ISSUER": "http://127.0.0.1:9", "NOTES_CLIENT_ID": "notes", "NOTES_CLIENT_SECRET": "s", "NOTES_PORT": String(port),
        ]
        let tooLong = good.merging(["NOTES_CACHE_SECONDS": "600"]) { $1 }
        let misconfigured = try ServerProcess(executable: "notes-api", environment: tooLong, port: port)
        let status = await misconfigured.waitForExit()
        XCTAssertEqual(status, 78, misconfigured.output)
        XCTAssertEqual(misconfigured.output, "notes-api: NOTES_CACHE_SECONDS must be a whole number from 0 to 60\n")

        let first = try ServerProcess(executable: "notes-api", environment: good, port: port)
        try await first.waitUntilHealthy(path: "/.well-known/oauth-protected-resource")
        let second = try ServerProcess(executable: "notes-api", environment: good, port: port)
        let busy = await second.waitForExit()
        XCTAssertEqual(busy, 1, second.output)
        XCTAssertTrue(second.output.contains("notes-api: 127.0.0.1:\(port) is already in use"), second.output)
        XCTAssertFalse(second.output.contains("Fatal error"), second.output)
        // With TIL unreachable, a token gets a 503 to retry, not a verdict.
        let unreachable = try await first.client.send(.get, "/notes", auth: .bearer("some-token"))
        XCTAssertEqual(unreachable.status.code, 503, unreachable.bodyString)
        XCTAssertNotNil(unreachable.headers["Retry-After"])
        await first.stop()
    }

    private func redeem(
        _ code: String, _ pkce: PKCEPair, _ client: StoredClient, resource: String, _ app: TestApp
    ) async throws -> [String: Any] {
        let response = try await app.client.postForm("/oauth/token", [
            ("grant_type", "authorization_code"), ("code", code), ("code_verifier", pkce.verifier),
            ("redirect_uri", client.redirectURIs[0]), ("client_id", client.id), ("resource", resource),
        ])
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try response.jsonObject()
    }
}
