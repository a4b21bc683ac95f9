import AppTesting
import Foundation
import Postgres
import TILClient
import Web
import WebTesting
import XCTest
@testable import App

/// TILClient's native-app code flow against the real server on a loopback port: the pages
/// walked as a browser, the code exchanged over URLSession, the pair kept and refreshed at the
/// token endpoint, and per-API tokens narrowed from the one sign-in (`accessToken(scopes:)`).
final class NativeSignInTests: XCTestCase {
    func testAThirdPartyAppSignsInWithConsentAndItsTokensWork() async throws {
        try await withTestApp(.live) { app in
            let user = try await User.create(username: "rey", on: app)
            let registered = try await StoredClient.create(
                name: "Notes App", redirectURIs: ["http://127.0.0.1/callback"], scope: ["acronyms:write", "categories:write"], on: app)
            let store = MemoryCredentialStore()
            let til = app.tilClient(store: store)
            let signedIn = try await app.signInInBrowser(til, as: "rey", scopes: [.acronymsWrite], clientID: registered.id)
            XCTAssertEqual(signedIn.username, "rey")
            XCTAssertEqual(signedIn.token.user.id, user.id)
            XCTAssertEqual(signedIn.token.scopes, [.acronymsWrite])
            XCTAssertNil(signedIn.idToken, "no openid asked")
            let credentials = await store.load().credentials
            XCTAssertEqual(credentials.count, 1)
            XCTAssertEqual(credentials.first?.signIn, .browser)
            XCTAssertEqual(credentials.first?.oauthClientID, registered.id)
            XCTAssertGreaterThan(credentials.first?.refreshExpiresAt ?? .distantPast, Date.distantFuture.addingTimeInterval(-86_400),
                                 "a grant without account cannot read its session's end: the server's refusal will say")
            let session = try await app.til.db.query("SELECT kind, client_id FROM sessions WHERE user_id = \(user.id) AND kind = 'oauth'")
            XCTAssertEqual(try session.first?.decode(column: "client_id", as: String.self), registered.id)

            let acronym = try await til.acronyms.create(short: "PKCE", long: "Proof Key for Code Exchange")
            XCTAssertEqual(acronym.user.id, user.id)
            // Refreshed at the token endpoint as the app (a password login's door would not take it).
            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE user_id = \(user.id)")
            let me = try await til.me()
            XCTAssertEqual(me.id, user.id)
            let refreshed = try await app.number("SELECT count(*) AS n FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE s.user_id = \(user.id) AND r.parent_id IS NOT NULL")
            XCTAssertEqual(refreshed, 1)
            let kept = await store.load().credentials
            XCTAssertEqual(kept.map(\.scopes), [ScopeSet([.acronymsWrite])], "a refresh keeps the scope set")
        }
    }

    func testTilCLISignsInWithoutConsentAndACallbackIsRedeemedOnce() async throws {
        try await withTestApp(.live) { app in
            let til = app.tilClient()
            let signIn = try await til.beginBrowserSignIn(redirectURI: URL(string: "http://127.0.0.1:50123/callback")!)
            let callback = try await BrowserClient(app.client).authorize(signIn.url, as: "admin")
            XCTAssertTrue(callback.absoluteString.hasPrefix("http://127.0.0.1:50123/callback?"), "any loopback port (RFC 8252 §7.3)")
            let signedIn = try await til.finishBrowserSignIn(signIn, callback: callback)
            XCTAssertEqual(Set(signedIn.token.scopes), Set(Scope.known), "every scope of til-cli")
            let stored = try await til.credentials()
            XCTAssertEqual(stored.credentials.first?.sessionID, signedIn.token.id, "the session read with account")
            let kinds = try await til.account.sessions().filter(\.current).map(\.kind)
            XCTAssertEqual(kinds, ["oauth"])
            // The same callback again (a reload, a replay): the code is spent, and its second
            // redemption revokes what the first issued (RFC 6749 §4.1.2).
            do {
                try await til.finishBrowserSignIn(signIn, callback: callback)
                XCTFail("a code redeemed twice")
            } catch TILError.server(let status, let reason, _) {
                XCTAssertEqual(status, 400)
                XCTAssertTrue(reason.hasPrefix("invalid_grant"), reason)
            }
            await assertNotAuthenticatedAfterRefresh(til, app: app)
        }
    }

    func testAccessTokenNarrowsOnceThenAnswersFromTheStore() async throws {
        try await withTestApp(.live) { app in
            let store = MemoryCredentialStore()
            let til = app.tilClient(store: store)
            let signedIn = try await app.signInInBrowser(til)
            let narrow = try await til.accessToken(scopes: [.acronymsWrite])
            XCTAssertEqual(narrow.scopes, ScopeSet([.acronymsWrite]))
            XCTAssertNotEqual(narrow.value, signedIn.token.value)
            let narrowings = try await refreshes(app)
            XCTAssertEqual(narrowings, 1, "one narrowing refresh")
            let again = try await til.accessToken(scopes: [.acronymsWrite])
            XCTAssertEqual(again, narrow, "the cached token")
            let afterCache = try await refreshes(app)
            XCTAssertEqual(afterCache, 1)
            let full = try await til.accessToken(scopes: Set(Scope.known))
            XCTAssertEqual(full.value, signedIn.token.value, "the sign-in's own token, held")

            // The narrowed token does what it holds and nothing more; the broad one still works.
            let made = try await app.client.send(
                .post, "/api/acronyms", headers: ["Content-Type": "application/json"], body: Array(#"{"short":"N","long":"Narrow"}"#.utf8),
                auth: .bearer(narrow.value))
            XCTAssertEqual(made.status, .ok, made.bodyString)
            let refused = try await app.client.send(
                .post, "/api/categories", headers: ["Content-Type": "application/json"], body: Array(#"{"name":"Wide"}"#.utf8),
                auth: .bearer(narrow.value))
            XCTAssertEqual(refused.status, .forbidden)
            _ = try await til.categories.create(name: "Broad-\(UUID().uuidString.prefix(6))")

            // Both scope sets hold the rotated refresh token; the sign-in's is spent.
            let credentials = await store.load().credentials
            XCTAssertEqual(credentials.count, 2)
            XCTAssertEqual(Set(credentials.map(\.refreshToken)).count, 1)
            XCTAssertNotEqual(credentials.first?.refreshToken, signedIn.token.refreshToken)
            XCTAssertEqual(Set(credentials.map(\.sessionID)), [signedIn.token.id])
            let live = try await app.number("SELECT count(*) AS n FROM sessions WHERE id = \(signedIn.token.id) AND revoked_at IS NULL")
            XCTAssertEqual(live, 1)

            // What the sign-in did not grant is not asked for behind the person's back.
            do {
                _ = try await til.accessToken(scopes: [.clientsWrite])
                XCTFail("widened")
            } catch TILError.notAuthenticated(let reason) {
                XCTAssertTrue(reason.contains("clients:write"), reason)
            }

            // Logging out ends the one session behind both scope sets, and forgets them.
            try await til.logout()
            let left = await store.load()
            XCTAssertTrue(left.isEmpty)
            let ended = try await app.number("SELECT count(*) AS n FROM sessions WHERE id = \(signedIn.token.id) AND revoked_at IS NOT NULL")
            XCTAssertEqual(ended, 1)
        }
    }

    /// The race kind: narrowings to different scope sets at once, in one client and in two
    /// clients sharing one credentials folder (two `til` processes), present the rotating
    /// refresh token once each — the server's reuse detection would otherwise end the session.
    func testNarrowingsToDifferentScopeSetsAtOnceNeverPresentASpentRefreshToken() async throws {
        try await withTestApp(.live) { app in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("til-narrow-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = app.tilClient(store: FileCredentialStore(directory: folder))
            let second = app.tilClient(store: FileCredentialStore(directory: folder))
            let signedIn = try await app.signInInBrowser(first)
            let wanted: [(APIClient, Set<Scope>)] = [
                (first, [.acronymsWrite]), (second, [.categoriesWrite]), (first, [.usersWrite]), (second, [.account]),
                (first, [.acronymsWrite, .categoriesWrite]), (second, [.acronymsWrite]),
            ]
            let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
                for (client, scopes) in wanted { group.addTask { try await client.accessToken(scopes: scopes) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(Set(tokens.map(\.scopes)), Set(wanted.map { ScopeSet($0.1) }))
            XCTAssertEqual(Set(tokens.map(\.value)).count, 5, "one token per scope set, the repeated set shared")
            let session = signedIn.token.id
            let live = try await app.number("SELECT count(*) AS n FROM sessions WHERE id = \(session) AND revoked_at IS NULL")
            XCTAssertEqual(live, 1,
                           "no refresh token was presented twice")
            let refreshCount = try await refreshes(app)
            XCTAssertEqual(refreshCount, 5)
            let unspent = try await app.number("""
                SELECT count(*) AS n FROM refresh_tokens WHERE session_id = \(session) AND revoked_at IS NULL AND spent_at IS NULL
                """)
            XCTAssertEqual(unspent, 1, "one live refresh token: a single chain")
            for token in tokens {
                let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(token.value))
                XCTAssertEqual(me.status, .ok, "\(token.scopes)")
            }
        }
    }

    /// OpenID Connect on the same flow: `openid` asked, the `id_token` validated against this
    /// sign-in's nonce, issuer and client (claims only, by design: see `IDToken`).
    func testAnOpenIDSignInGetsAnIDTokenValidatedAgainstItsNonce() async throws {
        try await withTestApp(.live) { app in
            let user = try await User.create(name: "Rey Skywalker", username: "rey-oidc", on: app)
            let registered = try await StoredClient.create(
                name: "Notes App", redirectURIs: ["http://127.0.0.1/callback"], scope: ["openid", "profile", "acronyms:write"], on: app)
            let til = app.tilClient()
            let signedIn = try await app.signInInBrowser(
                til, as: "rey-oidc", scopes: [Scope(rawValue: "openid"), Scope(rawValue: "profile"), .acronymsWrite], clientID: registered.id)
            let idToken = try XCTUnwrap(signedIn.idToken, "openid asked: an id_token")
            XCTAssertEqual(idToken.subject, user.id.uuidString.lowercased())
            XCTAssertEqual(idToken.issuer, app.serverURL.absoluteString)
            XCTAssertEqual(idToken.audience, [registered.id])
            XCTAssertEqual(idToken.preferredUsername, "rey-oidc")
            XCTAssertEqual(idToken.name, "Rey Skywalker")
            XCTAssertEqual(idToken.nonce?.utf8.count, 43, "this sign-in's nonce, checked")
            XCTAssertGreaterThan(idToken.expiresAt, Date())
            let narrowed = try await til.accessToken(scopes: [.acronymsWrite])
            XCTAssertEqual(narrowed.scopes, ScopeSet([.acronymsWrite]))
        }
    }

    private func refreshes(_ app: TestApp) async throws -> Int {
        try await app.number("SELECT count(*) AS n FROM refresh_tokens WHERE parent_id IS NOT NULL")
    }

    /// After the replayed code revoked the sign-in: the next refresh is refused, the store emptied.
    private func assertNotAuthenticatedAfterRefresh(_ til: APIClient, app: TestApp, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await app.til.db.execute("UPDATE tokens SET expires_at = now() - interval '1 second'")
            _ = try await til.me()
            XCTFail("the revoked sign-in still works", file: file, line: line)
        } catch TILError.notAuthenticated {
            let left = try? await til.credentials()
            XCTAssertEqual(left?.isEmpty, true, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}
