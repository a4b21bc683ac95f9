import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The account backoff and the known addresses of issue 17 in every spelling of a username the
/// lookup accepts: guesses spread over spellings fill one account's count, and an address known
/// from a login in one spelling is known for every other, since both are the account's.
final class LockoutSpellingTests: XCTestCase {
    func testTheBackoffAndTheKnownAddressHoldWhateverSpellingIsUsed() async throws {
        // Live, behind a trusted proxy: X-Forwarded-For names each client address.
        try await withTestApp(.live, settings: LockoutByStrangersTests.settings(threshold: 3, base: 30, max: 60)) { app in
            let user = try await User.create(username: "zoë-ali", on: app)
            func login(_ spelling: String, _ password: String, from address: String) async throws -> TestResponse {
                try await app.client.login(spelling, password, headers: LockoutByStrangersTests.from(address))
            }
            let home = "198.51.100.9"
            let first = try await login("ZOË-ALI", "password", from: home)
            XCTAssertEqual(first.status.code, 200, first.bodyString)
            XCTAssertEqual(try first.decode(LoginAnswer.self).user.id, user.id)

            for (attempt, spelling) in ["zoe\u{308}-ali", "ZOË-ALİ", "Zoë-Ali"].enumerated() {
                let failed = try await login(spelling, "guess-\(attempt)", from: "203.0.113.\(attempt + 1)")
                XCTAssertEqual(failed.status.code, 401, spelling)
            }
            for (index, spelling) in ["zoë-ali", "ZOE\u{308}-ALI", "zoë-alİ"].enumerated() {
                assertThrottled(try await login(spelling, "password", from: "192.0.2.\(index + 1)"), window: 30)
            }
            let owner = try await login("Zoe\u{308}-ALİ", "password", from: home)
            XCTAssertEqual(owner.status.code, 200, "known from the login as ZOË-ALI: \(owner.bodyString)")
        }
    }
}
