import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two `til-server` processes over one database: the account page's password change on one
/// ends the account's bearer sessions on the other at once (sessions live in PostgreSQL), and
/// the other signs in with the new password only.
final class AccountPasswordPageAcrossProcessesTests: ServerProcessTestCase {
    func testAChangeOnOneProcessEndsTheSessionsOnTheOther() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "ahsoka", on: app)
            servers = try await ServerProcess.healthy(2, settings: [:])
            let (a, b) = (servers[0].client, servers[1].client)
            let onB = try await b.session("ahsoka")
            let browser = BrowserClient(a)
            let page = try await browser.accountPage(signingInAs: "ahsoka")
            let form = try HTMLForm.posting(to: "/account/password", in: page)

            let changed = try await browser.submit(
                form, ["current_password": "password", "new_password": "new-password-1", "repeat_password": "new-password-1"])
            XCTAssertEqual(changed.location, "/account?notice=password-changed", changed.bodyString)
            let ended = try await b.meStatus(onB.value)
            XCTAssertEqual(ended, 401, "B's session ended by A's change")
            let old = try await b.login("ahsoka", "password")
            XCTAssertEqual(old.status.code, 401, "the old password is gone on B")
            let new = try await b.login("ahsoka", "new-password-1")
            XCTAssertEqual(new.status.code, 200, new.bodyString)
            let stillSignedIn = try await browser.get("/account")
            XCTAssertEqual(stillSignedIn.status, .ok, "the browser that changed it stays signed in")
        }
    }
}
