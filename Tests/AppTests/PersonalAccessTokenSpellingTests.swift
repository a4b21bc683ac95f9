import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Unicode spellings around personal access tokens: names kept in NFC whatever form they came
/// in (full-width letters are letters, kept as typed), the account found whichever spelling of
/// its username logged in, and look-alike spellings of a token, a scope or a number refused.
final class PersonalAccessTokenSpellingTests: XCTestCase {
    func testNamesAreStoredInNFCAndTrimmed() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let decomposed = try await app.client.pat("  Bu\u{308}ro-Laptop\n", bearer: login.value)
            XCTAssertEqual(decomposed.name, "Büro-Laptop")
            XCTAssertEqual(Array(decomposed.name.unicodeScalars), Array("B\u{FC}ro-Laptop".unicodeScalars), "stored in NFC")
            let fullWidth = try await app.client.pat("ＣＩ　ｄｅｐｌｏｙ", bearer: login.value)
            XCTAssertEqual(fullWidth.name, "ＣＩ　ｄｅｐｌｏｙ", "compatibility forms are not folded: the name is the owner's")
            let emoji = try await app.client.pat("🦊 fox-bot", bearer: login.value)
            let listed = try await app.client.listedPATs(bearer: login.value).map(\.name)
            XCTAssertEqual(listed, ["Büro-Laptop", "ＣＩ　ｄｅｐｌｏｙ", emoji.name])
            let stored = try await app.til.db.query("SELECT name FROM sessions WHERE id = \(decomposed.id)")
            XCTAssertEqual(Array(try stored[0].decode(column: "name", as: String.self).utf8), Array("B\u{FC}ro-Laptop".utf8))
        }
    }

    /// A username logged in as NFD upper case is the NFC account: its tokens are that account's.
    func testAnNFDUpperCaseLoginMakesTheAccountsTokens() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "zoë-\(UUID().uuidString.prefix(6).lowercased())", on: app)
            let spelled = user.username.uppercased().decomposedStringWithCanonicalMapping
            XCTAssertNotEqual(Array(spelled.utf8), Array(user.username.utf8))
            let odd = try await app.client.session(spelled)
            let pat = try await app.client.pat(bearer: odd.value)
            let me = try await app.client.send(.get, "/api/users/me", auth: .bearer(pat.token))
            XCTAssertEqual(try me.decode(PublicUser.self).id, user.id)
            let plain = try await app.client.session(user.username)
            let listed = try await app.client.listedPATs(bearer: plain.value).map(\.id)
            XCTAssertEqual(listed, [pat.id])
        }
    }

    /// A token is its exact bytes: another case, a full-width prefix or a stray space is an
    /// unknown token (401), never a near match.
    func testLookAlikeSpellingsOfATokenAreUnknown() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let token = try await app.client.pat(bearer: login.value).token
            let body = token.dropFirst("til_pat_".count)
            for spelling in ["TIL_PAT_" + body, "ｔｉｌ_pat_" + body, "til_pat_" + body.uppercased(), "til_pat_ " + body, "til_pat" + body] {
                let response = try await app.client.send(.get, "/api/users/me", auth: .bearer(spelling))
                XCTAssertEqual(response.status.code, 401, "\(spelling): \(response.bodyString)")
            }
            let real = try await app.client.meStatus(token)
            XCTAssertEqual(real, 200)
        }
    }

    /// Scope names and numbers in other spellings are not the ones the rules know.
    func testScopesInAnotherCaseAndFullWidthNumbersAreRefused() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "hiro-\(UUID().uuidString.prefix(6).lowercased())", on: app)
            let login = try await app.client.session(user.username)
            for scope in ["ACRONYMS:WRITE", "acronyms：write", "acronyms:write\u{200B}"] {
                let response = try await app.client.createPAT(scopes: [scope], bearer: login.value)
                XCTAssertEqual(response.status.code, 400, "\(scope): \(response.bodyString)")
                XCTAssertTrue(try response.decode(ErrorAnswer.self).reason.contains("unknown scope"), response.bodyString)
            }
            // The account page's form: `expires_in` in full-width digits is no number.
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: user.username)
            let form = try HTMLForm.posting(to: "/account/tokens", in: page)
            let refused = try await browser.submit(form, ["name": "wide", "expires_in": "３６００"])
            XCTAssertEqual(refused.status.code, 400, refused.bodyString)
            let none = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE kind = 'pat' AND user_id = \(user.id)")
            XCTAssertEqual(none, 0)
        }
    }
}
