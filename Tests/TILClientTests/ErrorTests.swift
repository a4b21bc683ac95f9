import Foundation
import TILClient
import XCTest

/// The server's refusals arrive typed: status, reason, and the challenge's error code.
final class ErrorTests: XCTestCase {
    func testRefusalsCarryStatusReasonAndChallenge() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password, scopes: [.acronymsWrite])

            await assertServerError(404, "No acronym with that id.") { try await til.acronyms.show(UUID()) }
            await assertServerError(400, "'short' must not be empty.") { try await til.acronyms.create(short: " ", long: "x") }
            await assertServerError(401, "Invalid username or password.") {
                try await server.client().login(username: user.username, password: "not-the-password")
            }
            let forbidden = APIRequest("POST", "/api/categories", body: Data(#"{"name":"x"}"#.utf8), authorization: .bearer(nil))
            await assertServerError(403, "This token lacks the 'categories:write' scope.", challenge: "insufficient_scope") {
                try await til.send(forbidden)
            }
            await assertServerError(400, "Missing search term: use ?term=...") {
                try await til.acronyms.search("").collect()
            }
        }
    }

    func testAServerThatCannotBeReachedIsATransportError() async throws {
        let til = APIClient(server: URL(string: "http://127.0.0.1:1")!)
        do {
            _ = try await til.health()
            XCTFail("nothing listens on port 1")
        } catch TILError.transport(let reason) {
            XCTAssertFalse(reason.isEmpty)
        }
    }
}
