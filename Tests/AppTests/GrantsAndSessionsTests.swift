import AppTesting
import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebTesting
import XCTest
@testable import App

/// The sessions list names how each session began and for which client; grants are listed and
/// withdrawn, ending the client's tokens for the user (issue 18).
final class GrantsAndSessionsTests: XCTestCase {
    func testTheSessionsListNamesTheKindAndTheClient() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient(["client_name": "Notes 📝"])
            let verifier = pkceVerifier()
            let code = try await app.insertAuthorizationCode(client: client, user: try await app.adminID(), verifier: verifier)
            let oauth = try await AuthorizationCodeGrantTests.redeem(app.client, client, code: code, verifier: verifier)
            XCTAssertEqual(oauth.status.code, 200)
            let login = try await app.client.session("admin", scope: "account")
            let response = try await app.client.send(.get, "/api/users/me/sessions", auth: .bearer(login.value))
            let sessions = try response.decode([SessionInfo].self)
            XCTAssertEqual(sessions.map(\.kind), ["login", "oauth", "login"], "registering logged in first; oldest first")
            let byKind = Dictionary(sessions.map { ($0.kind ?? "?", $0) }) { first, _ in first }
            XCTAssertEqual(byKind["oauth"]?.clientName, "Notes 📝")
            XCTAssertEqual(byKind["oauth"]?.scopes.map(\.rawValue), ["acronyms:write", "categories:write"])
            XCTAssertNil(byKind["login"]?.clientName)
            XCTAssertFalse(response.bodyString.contains("clientName\":null"), "absent, as older answers were")
            // A client decodes an answer from before issue 18, without the new fields.
            let old = #"[{"id":"0F8FAD5B-D9CB-469F-A165-70867728950E","createdAt":"2026-11-23T12:00:00Z","lastUsedAt":"2026-11-23T12:00:00Z","expiresAt":"2026-11-23T13:00:00Z","refreshExpiresAt":"2026-12-23T12:00:00Z","scopes":["account"],"current":true}]"#
            let decoded = try JSONDecoder().decode([SessionInfo].self, from: Data(old.utf8))
            XCTAssertNil(decoded.first?.kind)
        }
    }

    func testAGrantIsListedAndWithdrawingItEndsTheClientsTokensForTheUser() async throws {
        try await withTestApp { app in
            let client = try await app.oauthClient(["client_name": "Café"])
            let other = try await app.oauthClient()
            let admin = try await app.adminID()
            for registered in [client, other] {
                try await app.til.db.execute(
                    "INSERT INTO oauth_grants (user_id, client_id, scopes) VALUES (\(admin), \(registered.id), 'acronyms:write')")
            }
            let verifier = pkceVerifier()
            var tokens: [String] = []
            for registered in [client, other] {
                let code = try await app.insertAuthorizationCode(client: registered, user: admin, verifier: verifier)
                let answer = try await AuthorizationCodeGrantTests.redeem(app.client, registered, code: code, verifier: verifier).jsonObject()
                tokens.append(try XCTUnwrap(answer["access_token"] as? String))
            }
            let account = try await app.client.session("admin", scope: "account").value
            let listed = try await app.client.send(.get, "/api/users/me/grants", auth: .bearer(account))
            XCTAssertEqual(listed.status.code, 200, listed.bodyString)
            let grants = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]])
            XCTAssertEqual(Set(grants.compactMap { $0["clientID"] as? String }), [client.id, other.id])
            XCTAssertEqual(grants.first { $0["clientID"] as? String == client.id }?["clientName"] as? String, "Café")
            XCTAssertEqual(grants.first?["scopes"] as? [String], ["acronyms:write"])
            XCTAssertNotNil(grants.first?["createdAt"] as? String)

            let withdrawn = try await app.client.send(.delete, "/api/users/me/grants/\(client.id)", auth: .bearer(account))
            XCTAssertEqual(withdrawn.status.code, 204, withdrawn.bodyString)
            let (first, second) = (try await app.client.meStatus(tokens[0]), try await app.client.meStatus(tokens[1]))
            XCTAssertEqual(first, 401, "the client's token ended")
            XCTAssertEqual(second, 200, "another client's lives on")
            let again = try await app.client.send(.delete, "/api/users/me/grants/\(client.id)", auth: .bearer(account))
            XCTAssertEqual(again.status.code, 404)
            let unknown = try await app.client.send(.delete, "/api/users/me/grants/\(String(repeating: "x", count: 300))", auth: .bearer(account))
            XCTAssertEqual(unknown.status.code, 404)
            let lacking = try await app.client.send(.get, "/api/users/me/grants", auth: .bearer(tokens[1]))
            XCTAssertEqual(lacking.status.code, 403, "needs account")
        }
    }
}
