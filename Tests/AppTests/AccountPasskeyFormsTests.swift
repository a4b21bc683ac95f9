import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account page's passkeys: listed with Rename and Remove forms (CSRF-bound, plain HTML),
/// and the form the script drives to add one.
final class AccountPasskeyFormsTests: XCTestCase {
    func testRenameAndRemoveFromTheAccountPage() async throws {
        try await withTestApp { app in
            let owner = try await User.create(username: "keeper", on: app)
            let other = try await User.create(username: "other", on: app)
            let id = try await PasskeyRows.insert(for: owner.id, name: "Old <name>", on: app)
            let theirs = try await PasskeyRows.insert(for: other.id, on: app)
            let browser = BrowserClient(app.client)
            let login = try await browser.submit(try HTMLForm.only(in: try await browser.get("/login")), ["username": "keeper", "password": "password"])
            XCTAssertEqual(login.status.code, 303)

            let page = try await browser.get("/account")
            XCTAssertTrue(page.bodyString.contains("Old &lt;name&gt;"), "the name, escaped")
            XCTAssertTrue(page.bodyString.contains(#"<form method="post" action="/account/passkeys" id="passkey-add" hidden>"#))
            XCTAssertTrue(page.bodyString.contains(#"<script src="/assets/passkeys.js" defer></script>"#))
            XCTAssertTrue(page.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
            let forms = HTMLForm.all(in: page.bodyString)
            let rename = try XCTUnwrap(forms.first { $0.action == "/account/passkeys/\(id.uuidString.lowercased())/rename" })
            let remove = try XCTUnwrap(forms.first { $0.action == "/account/passkeys/\(id.uuidString.lowercased())/remove" })

            let renamed = try await browser.submit(rename, ["name": "  Neue Bu\u{308}ro-Taste "])
            XCTAssertEqual(renamed.location, "/account?notice=passkey-renamed", renamed.bodyString)
            let name = try await app.til.db.query("SELECT name FROM passkeys WHERE id = \(id)").first?.decode(column: "name", as: String.self)
            XCTAssertEqual(name, "Neue Büro-Taste")
            let blank = try await browser.submit(rename, ["name": " "])
            XCTAssertEqual(blank.status.code, 400, "a page naming the field")
            XCTAssertTrue(blank.bodyString.contains("must not be empty"), blank.bodyString)
            let forged = try await browser.submit(rename, ["csrf_token": String(repeating: "0", count: 64)])
            XCTAssertEqual(forged.status.code, 403)

            let foreign = HTMLForm(action: "/account/passkeys/\(theirs.uuidString.lowercased())/remove", method: "post", fields: remove.fields, buttons: [])
            let notMine = try await browser.submit(foreign)
            XCTAssertEqual(notMine.status.code, 404, "another user's passkey is as unknown as none")
            let removed = try await browser.submit(remove)
            XCTAssertEqual(removed.location, "/account?notice=passkey-removed")
            let again = try await browser.submit(remove)
            XCTAssertEqual(again.status.code, 404)
            let left = try await app.til.db.query("SELECT count(*)::int AS n FROM passkeys").first?.decode(column: "n", as: Int.self)
            XCTAssertEqual(left, 1, "only the other user's")
        }
    }
}
