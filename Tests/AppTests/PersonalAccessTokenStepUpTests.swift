import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Making a personal access token needs a recent authentication (RFC 9470): a login signed in
/// more than `REAUTH_WINDOW` ago gets the step-up challenge and makes nothing until it proves
/// the password again; the account page sends the browser through a fresh sign-in.
final class PersonalAccessTokenStepUpTests: XCTestCase {
    func testAStaleLoginIsChallengedAndMakesATokenAfterReauthenticating() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let kept = try await app.client.pat("made while fresh", bearer: login.value)
            try await app.ageAuthentication(of: login.id)

            let stale = try await app.client.createPAT("stale", bearer: login.value)
            assertStepUp(stale, "a stale login")
            let made = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat' AND user_id = \(user.id)")
            XCTAssertEqual(made, 1, "nothing made")
            // Listing and revoking are not changes to how the account is reached: no challenge.
            let listed = try await app.client.listedPATs(bearer: login.value)
            XCTAssertEqual(listed.map(\.id), [kept.id])

            let reauth = try await app.client.send(.post, "/api/users/me/reauth", json: ["password": "password"], auth: .bearer(login.value))
            XCTAssertEqual(reauth.status.code, 204, reauth.bodyString)
            let fresh = try await app.client.createPAT("after reauth", bearer: login.value)
            XCTAssertEqual(fresh.status.code, 201, fresh.bodyString)
            let revoked = try await app.client.revokePAT(kept.id, bearer: login.value)
            XCTAssertEqual(revoked, 204)
        }
    }

    func testTheAccountPageSendsAStaleBrowserThroughAFreshSignIn() async throws {
        try await withTestApp { app in
            let username = "rosa-\(UUID().uuidString.prefix(6).lowercased())"
            let (browser, page) = try await app.accountBrowser(username)
            let rows = try await app.til.db.query("SELECT id FROM users WHERE username = \(username)")
            try await app.ageAuthentications(ofUser: try XCTUnwrap(rows.first).decode(column: "id", as: UUID.self))
            let csrf = try XCTUnwrap(try HTMLForm.posting(to: "/account/tokens", in: page).value("csrf_token"))
            let answer = try await browser.post("/account/tokens", [("csrf_token", csrf), ("name", "stale"), ("expires_in", "60")])
            XCTAssertEqual(answer.status.code, 303, answer.bodyString)
            XCTAssertEqual(answer.location, "/login?return_to=/account%3Fnotice%3Dsigned-in-again&max_age=600")
            let made = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat'")
            XCTAssertEqual(made, 0)
        }
    }
}
