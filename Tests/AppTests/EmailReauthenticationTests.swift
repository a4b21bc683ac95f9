import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A change of address is a sensitive change (RFC 9470): a sign-in older than `REAUTH_WINDOW`
/// gets the step-up challenge from the API and a fresh sign-in from the account page, before
/// its password is even checked; nothing is queued until then.
final class EmailReauthenticationTests: XCTestCase {
    func testAnOldSignInMustStepUpBeforeTheAddressChanges() async throws {
        try await withTestApp { app in
            _ = try await app.user("rey", email: "rey@old.example", verified: true)
            let session = try await app.client.session("rey")
            try await app.ageAuthentication(of: session.id)
            let refused = try await app.client.changeEmail(to: "rey@new.example", bearer: session.value)
            assertStepUp(refused, "an old sign-in")
            let wrongToo = try await app.client.changeEmail(to: "rey@new.example", password: "wrong", bearer: session.value)
            assertStepUp(wrongToo, "the password is not checked before the step-up")
            let none = try await app.queuedMails()
            XCTAssertEqual(none, [], "nothing queued")

            let renewed = try await app.reauth(session.value, ["password": "password"])
            XCTAssertEqual(renewed.status.code, 204, renewed.bodyString)
            let started = try await app.client.changeEmail(to: "rey@new.example", bearer: session.value)
            XCTAssertEqual(started.status.code, 202, started.bodyString)
            let resend = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            XCTAssertEqual(resend.status.code, 204, "sending the link again is no change: \(resend.bodyString)")
        }
    }

    func testTheAccountPagesFormSendsAnOldSignInThroughAFreshOne() async throws {
        try await withTestApp { app in
            let user = try await app.user("finn", email: "finn@old.example", verified: true)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: "finn")
            try await app.ageAuthentications(ofUser: user.id)
            let form = try HTMLForm.posting(to: "/account/email", in: page)
            let sent = try await browser.submit(form, ["email": "finn@new.example", "current_password": "password"])
            XCTAssertEqual(sent.status, .seeOther, sent.bodyString)
            XCTAssertEqual(sent.location, ReauthenticationPageTests.freshSignIn)
            let none = try await app.queuedMails()
            XCTAssertEqual(none, [], "nothing queued")

            let signIn = try HTMLForm.only(in: try await browser.get(ReauthenticationPageTests.freshSignIn))
            let back = try await browser.submit(signIn, ["password": "password"])
            let again = try await browser.get(try XCTUnwrap(back.location))
            let changed = try await browser.submit(
                try HTMLForm.posting(to: "/account/email", in: again), ["email": "finn@new.example", "current_password": "password"])
            XCTAssertEqual(changed.location, AccountNotice.emailChangeSent.location)
        }
    }
}
