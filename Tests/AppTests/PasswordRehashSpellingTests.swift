import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The rehash at login and Unicode: a username is one account in every spelling the lookup
/// accepts, so whichever spelling logs in upgrades that account's hash; a password is its
/// bytes, never normalised, so the new hash is of exactly the bytes that were proven.
final class PasswordRehashSpellingTests: XCTestCase {
    func testALoginInAnotherSpellingRehashesTheAccountItNames() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "5"]) { app in
            let user = try await User.create(username: "zoë-ali", on: app)
            let bystander = try await User.create(username: "zoe-ali", on: app)  // no diaeresis: another account
            let login = try await app.client.session("ZOE\u{308}-ALİ")  // decomposed, upper case, dotted İ
            XCTAssertEqual(login.user.id, user.id)
            let rehashed = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(PasswordRehash.cost(of: rehashed), 5, rehashed)
            let untouched = try await app.storedPasswordHash(of: bystander.id)
            XCTAssertEqual(PasswordRehash.cost(of: untouched), 4, "the look-alike account was not rehashed")
            for spelling in ["zoë-ali", "Zoe\u{308}-Ali"] {
                let again = try await app.client.session(spelling)
                XCTAssertEqual(again.user.id, user.id, spelling)
            }
        }
    }

    func testTheNewHashIsOfTheExactBytesProven() async throws {
        try await withTestApp(settings: ["BCRYPT_COST": "5"]) { app in
            let composed = "pässwört-\u{C5}", decomposed = "pa\u{308}sswo\u{308}rt-A\u{30A}"
            XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
            let user = try await UserRepository(db: app.til.db).create(
                name: "Bytes", username: "bytes", passwordHash: try Bcrypt.hash(composed, cost: 4))

            let otherForm = try await app.client.login("bytes", decomposed)
            XCTAssertEqual(otherForm.status.code, 401, "a password is its bytes: the other normal form is another password")
            let unchanged = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(PasswordRehash.cost(of: unchanged), 4, "a failed login rehashes nothing")

            _ = try await app.client.session("bytes", composed)
            let rehashed = try await app.storedPasswordHash(of: user.id)
            XCTAssertEqual(PasswordRehash.cost(of: rehashed), 5)
            XCTAssertTrue(try Bcrypt.verify(composed, created: rehashed))
            XCTAssertFalse(try Bcrypt.verify(decomposed, created: rehashed), "the rehash normalised the password")
            let stillOther = try await app.client.login("bytes", decomposed)
            XCTAssertEqual(stillOther.status.code, 401)
        }
    }
}
