import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two `til-server` processes over one database: the authentication time lives in PostgreSQL
/// and is read with the token, so a re-authentication on one process counts on the other at
/// once, and a session too old is refused by both.
final class ReauthenticationAcrossProcessesTests: ServerProcessTestCase {
    func testAReauthenticationOnOneProcessCountsOnTheOtherAtOnce() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "poe", on: app)
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let login = try await a.session("poe", scope: "account")
            try await app.ageAuthentication(of: login.id)
            assertStepUp(try await a.send(.post, "/api/users/me/mfa/totp", auth: .bearer(login.value)), "the old session on A")
            assertStepUp(try await b.send(.post, "/api/users/me/mfa/totp", auth: .bearer(login.value)), "and on B")

            let renewed = try await a.send(.post, "/api/users/me/reauth", json: ["password": "password"], auth: .bearer(login.value))
            XCTAssertEqual(renewed.status.code, 204, renewed.bodyString)
            let onB = try await b.send(.post, "/api/users/me/mfa/totp", auth: .bearer(login.value))
            XCTAssertEqual(onB.status.code, 201, "B takes A's re-authentication at once: \(onB.bodyString)")
        }
    }
}
