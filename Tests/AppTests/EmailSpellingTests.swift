import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Addresses spelled differently that are the same address: decomposed and composed
/// (stored once, in NFC), upper and lower case (unique ignoring case, 409 naming `email`);
/// and look-alikes that are no address at all (a full-width `@`).
final class EmailSpellingTests: XCTestCase {
    func testNFDAndNFCAndCaseSpellingsOfOneAddressAreOneAddress() async throws {
        try await withTestApp { app in
            func create(_ username: String, _ email: String) async throws -> TestResponse {
                try await app.createUser(username, email: email)
            }
            let decomposed = try await create("zoe", "zoe\u{0308}@bu\u{0308}cher.example")
            XCTAssertEqual(decomposed.status.code, 200, decomposed.bodyString)
            let user = try decomposed.decode(PublicUser.self)
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "zo\u{EB}@b\u{FC}cher.example", "stored composed")
            XCTAssertEqual(stored.email?.unicodeScalars.count, "zoë@bücher.example".unicodeScalars.count)
            let mailed = try await app.queuedMails().map(\.recipient)
            XCTAssertEqual(mailed, ["zo\u{EB}@b\u{FC}cher.example"], "mailed to the stored form")

            for (username, spelling) in [("zoe2", "zo\u{EB}@b\u{FC}cher.example"), ("zoe3", "ZOE\u{0308}@BU\u{0308}CHER.example"),
                                         ("zoe4", "Zo\u{EB}@B\u{FC}cher.Example")] {
                let duplicate = try await create(username, spelling)
                XCTAssertEqual(duplicate.status.code, 409, "\(spelling.unicodeScalars.map { String($0.value, radix: 16) }): \(duplicate.bodyString)")
                XCTAssertEqual(try duplicate.decode(ErrorAnswer.self).reason, "'email' is already taken.")
            }
            let fullWidth = try await create("zoe5", "zoe\u{FF20}b\u{FC}cher.example")
            XCTAssertEqual(fullWidth.status.code, 400, "a full-width at sign is not '@'")
        }
    }

    func testAChangeToAnotherSpellingOfATakenAddressIs409AndOfOnesOwnIsAChange() async throws {
        try await withTestApp { app in
            _ = try await app.user("ines", email: "in\u{E9}s@til.example", verified: true)
            let user = try await app.user("ivo", email: "ivo@til.example", verified: true)
            let session = try await app.client.session("ivo")
            for spelling in ["ine\u{0301}s@til.example", "INE\u{0301}S@TIL.EXAMPLE", "In\u{E9}s@Til.Example"] {
                let refused = try await app.client.changeEmail(to: spelling, bearer: session.value)
                XCTAssertEqual(refused.status.code, 409, refused.bodyString)
                XCTAssertEqual(try refused.decode(ErrorAnswer.self).reason, "'email' is already taken.")
            }
            let decomposedOwn = try await app.client.changeEmail(to: "ivo@til.example".decomposedStringWithCanonicalMapping, bearer: session.value)
            XCTAssertEqual(decomposedOwn.status.code, 409, "the same address: \(decomposedOwn.bodyString)")
            XCTAssertEqual(try decomposedOwn.decode(ErrorAnswer.self).reason, AccountEmails.alreadyYours.reason)
            let recased = try await app.client.changeEmail(to: "Ivo@TIL.example", bearer: session.value)
            XCTAssertEqual(recased.status.code, 202, "a new case of one's own address is a change: \(recased.bodyString)")
            _ = try await app.client.verifyEmail(try await app.verificationToken(mailedTo: "Ivo@TIL.example"))
            let stored = try await app.storedEmail(of: user.id)
            XCTAssertEqual(stored.email, "Ivo@TIL.example", "its own row holds the index entry: no conflict with itself")
        }
    }

    /// A composed `é` through the account page's form (a browser sends what the person typed)
    /// is stored composed, like the API's.
    func testThePagesFormStoresTheComposedForm() async throws {
        try await withTestApp { app in
            let (browser, page) = try await app.accountBrowser("ana")
            let form = try HTMLForm.posting(to: "/account/email", in: page)
            let sent = try await browser.submit(form, ["email": "ana\u{0301}@til.example", "current_password": "password"])
            XCTAssertEqual(sent.status, .seeOther, sent.bodyString)
            let pending = try await app.til.db.query("SELECT email FROM email_verifications").first?.decode(column: "email", as: String.self)
            XCTAssertEqual(pending, "an\u{E1}@til.example")
        }
    }
}
