import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `PUT /api/users/me/email` and `POST /api/users/me/email/verification`: a change is pending
/// until the new address proves itself, the old one in force meanwhile and told of it; the
/// link can be sent again, within the throttle.
final class EmailChangeTests: XCTestCase {
    func testAChangeIsPendingUntilTheNewAddressIsVerifiedAndTheOldOneIsTold() async throws {
        try await withTestApp { app in
            let user = try await app.user("uma", email: "uma@old.example", verified: true)
            let session = try await app.client.session("uma")
            let started = try await app.client.changeEmail(to: "uma@new.example", bearer: session.value)
            XCTAssertEqual(started.status.code, 202, started.bodyString)
            let pending = try started.decode(AccountProfile.self)
            XCTAssertEqual(pending.email, "uma@old.example", "the old address stays in force")
            XCTAssertEqual(pending.emailVerified, true)
            XCTAssertEqual(pending.pendingEmail, "uma@new.example")

            let mails = try await app.queuedMails()
            XCTAssertEqual(mails.map(\.kind), ["email-verification", "email-changed"])
            XCTAssertEqual(mails.map(\.recipient), ["uma@new.example", "uma@old.example"])
            XCTAssertEqual(mails[0].subject, "Confirm your new email address for TIL")
            XCTAssertNil(mails[1].linkToken, "the old address gets no link that could verify anything")
            XCTAssertTrue(mails[1].text.contains("u***@new.example"), "the notice names the new address, masked: \(mails[1].text)")
            XCTAssertFalse(mails[1].text.contains("uma@new.example"))
            XCTAssertTrue(mails[1].text.contains("/account"), "and points to the account page")

            let token = try XCTUnwrap(mails[0].linkToken)
            let verified = try await app.client.verifyEmail(token)
            XCTAssertEqual(verified.status.code, 204, verified.bodyString)
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "uma@new.example")
            XCTAssertTrue(stored.verified)
            let profile = try await app.client.profile(session.value)
            XCTAssertNil(profile.pendingEmail)
            let left = try await app.til.db.query("SELECT 1 FROM email_verifications WHERE user_id = \(user.id)")
            XCTAssertEqual(left.count, 0, "no link of the account is left")
        }
    }

    func testANewerChangeReplacesThePendingOneAndNoNoticeGoesToAnUnverifiedAddress() async throws {
        try await withTestApp { app in
            let user = try await app.user("ved", email: "ved@old.example", verified: false)
            let session = try await app.client.session("ved")
            let first = try await app.client.changeEmail(to: "ved@first.example", bearer: session.value)
            XCTAssertEqual(first.status.code, 202, first.bodyString)
            let second = try await app.client.changeEmail(to: "ved@second.example", bearer: session.value)
            XCTAssertEqual(try second.decode(AccountProfile.self).pendingEmail, "ved@second.example")
            let kinds = try await app.queuedMails().map(\.kind)
            XCTAssertEqual(kinds, ["email-verification", "email-verification"], "no notice to an address never proven")

            let stale = try await app.client.verifyEmail(try await app.verificationToken(mailedTo: "ved@first.example"))
            XCTAssertEqual(stale.status.code, 400, "the replaced change's link is dead")
            let current = try await app.client.verifyEmail(try await app.verificationToken(mailedTo: "ved@second.example"))
            XCTAssertEqual(current.status.code, 204, current.bodyString)
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "ved@second.example")
        }
    }

    func testAnAccountWithoutAnAddressAddsOneThroughAChange() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "noor", on: app)
            let session = try await app.client.session("noor")
            let before = try await app.client.profile(session.value)
            XCTAssertNil(before.email)
            XCTAssertEqual(before.emailVerified, false)
            let resend = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            XCTAssertEqual(resend.status.code, 409, "nothing to verify yet")
            XCTAssertEqual(try resend.decode(ErrorAnswer.self).reason, AccountEmails.noAddress.reason)
            let started = try await app.client.changeEmail(to: "noor@til.example", bearer: session.value)
            XCTAssertEqual(started.status.code, 202, started.bodyString)
            let kinds = try await app.queuedMails().map(\.kind)
            XCTAssertEqual(kinds, ["email-verification"])
            _ = try await app.client.verifyEmail(try await app.verificationToken(mailedTo: "noor@til.example"))
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "noor@til.example")
            XCTAssertTrue(stored.verified)
        }
    }

    func testRefusalsAreClearAndChangeNothing() async throws {
        try await withTestApp { app in
            _ = try await app.user("taken", email: "Taken@Til.Example", verified: false)
            let user = try await app.user("wes", email: "wes@til.example", verified: true)
            let session = try await app.client.session("wes")
            let cases: [(json: [String: String], status: Int, reason: String)] = [
                (["email": "taken@til.example", "currentPassword": "password"], 409, "'email' is already taken."),
                (["email": "wes@til.example", "currentPassword": "password"], 409, "'email' is already your address."),
                (["email": "wes@new.example", "currentPassword": "wrong"], 403, "The current password is wrong."),
                (["email": "a@b@new.example", "currentPassword": "password"], 400, "'email' must hold exactly one '@'."),
                (["email": String(repeating: "w", count: 300) + "@new.example", "currentPassword": "password"], 400,
                 "'email' must be at most 254 bytes."),
                (["email": "wes\u{9}@new.example", "currentPassword": "password"], 400, "'email' must not contain control characters."),
                (["currentPassword": "password"], 400, ""),
            ]
            for (json, status, reason) in cases {
                let response = try await app.client.send(.put, "/api/users/me/email", json: json, auth: .bearer(session.value))
                XCTAssertEqual(response.status.code, status, "\(json): \(response.bodyString)")
                let said = try response.decode(ErrorAnswer.self).reason
                if reason.isEmpty { XCTAssertTrue(said.contains("email"), said) } else { XCTAssertEqual(said, reason) }
            }
            let nul = try await app.client.send(
                .put, "/api/users/me/email", headers: ["Content-Type": "application/json"],
                body: Array(#"{"email":"a\u0000@b.example","currentPassword":"password"}"#.utf8), auth: .bearer(session.value))
            XCTAssertEqual(nul.status.code, 400, nul.bodyString)
            let queued = try await app.queuedMails()
            XCTAssertEqual(queued, [], "no refused change queued a mail")
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "wes@til.example")
            let profile = try await app.client.profile(session.value)
            XCTAssertNil(profile.pendingEmail)
        }
    }

    func testTheLinkIsSentAgainUntilTheThrottleSaysWhenToComeBack() async throws {
        try await withTestApp { app in
            _ = try await app.user("rhea", email: "rhea@til.example", verified: false)
            let session = try await app.client.session("rhea")
            for _ in 0..<EmailSendThrottle.perAccount {
                let sent = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
                XCTAssertEqual(sent.status.code, 204, sent.bodyString)
            }
            let tokens = try await app.queuedMails(to: "rhea@til.example").compactMap(\.linkToken)
            XCTAssertEqual(Set(tokens).count, EmailSendThrottle.perAccount, "a new link each time")
            let refused = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            XCTAssertEqual(refused.status.code, 429, refused.bodyString)
            let retryAfter = try XCTUnwrap(Int(refused.headers["Retry-After"] ?? ""))
            XCTAssertTrue((3590...3600).contains(retryAfter), "until the first send leaves the hour: \(retryAfter)")
            XCTAssertEqual(try refused.decode(ErrorAnswer.self).reason, "Too many verification mails; try again in \(retryAfter) seconds.")
            let change = try await app.client.changeEmail(to: "rhea@elsewhere.example", bearer: session.value)
            XCTAssertEqual(change.status.code, 429, "a change spends the same account budget: \(change.bodyString)")

            // An hour later (the sends moved back instead of waiting), the budget is back.
            try await app.til.db.execute("UPDATE email_sends SET sent_at = sent_at - interval '1 hour'")
            let later = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            XCTAssertEqual(later.status.code, 204, later.bodyString)

            let early = try await app.client.verifyEmail(tokens[0])
            XCTAssertEqual(early.status.code, 204, "every link sent keeps working: \(early.bodyString)")
            let nothingLeft = try await app.client.send(.post, "/api/users/me/email/verification", auth: .bearer(session.value))
            XCTAssertEqual(nothingLeft.status.code, 409, nothingLeft.bodyString)
            XCTAssertEqual(try nothingLeft.decode(ErrorAnswer.self).reason, AccountEmails.alreadyVerified.reason)
        }
    }
}
