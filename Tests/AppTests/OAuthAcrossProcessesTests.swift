import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A second `til-server` over the same database (issue 18): every OAuth endpoint keeps its
/// state in PostgreSQL only, so what one process registers, issues or withdraws, the other
/// sees at once; both answer discovery identically under one `ISSUER`.
final class OAuthAcrossProcessesTests: XCTestCase {
    func testRegistrationIssuanceIntrospectionAndWithdrawalAcrossTwoProcesses() async throws {
        let settings = ["ISSUER": "https://til.example"]
        try await withTestApp(settings: settings) { app in
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(settings.merging(["BCRYPT_COST": "4"]) { $1 }))
            try await other.waitUntilHealthy()
            for path in [OAuthEndpoints.authorizationServerMetadata, OAuthEndpoints.protectedResourceMetadata] {
                let (here, there) = (try await app.client.send(.get, path), try await other.client.send(.get, path))
                XCTAssertEqual(there.status.code, 200, there.bodyString)
                XCTAssertEqual(here.bodyString, there.bodyString, "one issuer, one document: \(path)")
            }

            // Registered over there, used here.
            let registered = try await other.client.registeredClient([
                "client_name": "Resource server", "redirect_uris": ["https://app.example/cb"],
                "grant_types": ["authorization_code", "refresh_token", "client_credentials"], "scope": "acronyms:write categories:write",
            ])
            let client = TestOAuthClient(
                id: try XCTUnwrap(registered["client_id"] as? String), secret: try XCTUnwrap(registered["client_secret"] as? String))
            let issued = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")], auth: client.basic)
            XCTAssertEqual(issued.status.code, 200, issued.bodyString)
            let userless = try XCTUnwrap(try issued.jsonObject()["access_token"] as? String)
            let created = try await other.client.send(.post, "/api/categories", json: ["name": "From here"], auth: .bearer(userless))
            XCTAssertEqual(created.status.code, 200, "issued here, honoured there: \(created.bodyString)")

            // Issued here, introspected there.
            let access = try await app.grantedAccessToken(for: client)
            let active = try await other.client.postForm("/oauth/introspect", [("token", access)], auth: client.basic)
            XCTAssertEqual(try active.jsonObject()["active"] as? Bool, true, active.bodyString)
            XCTAssertEqual(try active.jsonObject()["username"] as? String, "admin")

            // Withdrawn there, ended here at once.
            let account = try await other.client.session("admin", scope: "account").value
            let withdrawn = try await other.client.send(.delete, "/api/users/me/grants/\(client.id)", auth: .bearer(account))
            XCTAssertEqual(withdrawn.status.code, 204, withdrawn.bodyString)
            let ended = try await app.client.meStatus(access)
            XCTAssertEqual(ended, 401, "the withdrawal ended the client's token on this process too")
            let inactive = try await app.client.postForm("/oauth/introspect", [("token", access)], auth: client.basic)
            XCTAssertEqual(inactive.bodyString, #"{"active":false}"#)
            await [other].stopAll(showingOutputIf: hasFailed)
        }
    }
}
