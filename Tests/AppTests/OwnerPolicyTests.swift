import App
import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// `ACRONYM_EDIT_POLICY`: `owner` lets only the owner edit; the default is the book's.
final class OwnerPolicyTests: XCTestCase {
    struct AcronymAnswer: Decodable, Equatable {
        struct Owner: Decodable, Equatable { var id: UUID }
        var id: UUID
        var short: String
        var long: String
        var user: Owner
    }

    func testOwnerPolicyRefusesOtherUsersAndKeepsTheOwner() async throws {
        try await withTestApp(settings: ["ACRONYM_EDIT_POLICY": "owner"]) { app in
            let owner = try await User.create(on: app)
            let stranger = try await User.create(on: app)
            let ownerLogin = try await app.client.session(owner.username)
            let strangerLogin = try await app.client.session(stranger.username)
            let created = try await app.client.send(
                .post, "/api/acronyms", json: ["short": "OMG", "long": "Oh My God"], auth: .bearer(ownerLogin.value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let acronym = try created.decode(AcronymAnswer.self)
            XCTAssertEqual(acronym.user.id, owner.id)

            let put = try await app.client.send(
                .put, "/api/acronyms/\(acronym.id)", json: ["short": "OMG", "long": "Mine now"], auth: .bearer(strangerLogin.value))
            XCTAssertEqual(put.status.code, 403, put.bodyString)
            let delete = try await app.client.send(.delete, "/api/acronyms/\(acronym.id)", auth: .bearer(strangerLogin.value))
            XCTAssertEqual(delete.status.code, 403, delete.bodyString)
            let unchanged = try await app.client.send(.get, "/api/acronyms/\(acronym.id)")
            XCTAssertEqual(try unchanged.decode(AcronymAnswer.self), acronym, "refused edits change nothing")

            let update = try await app.client.send(
                .put, "/api/acronyms/\(acronym.id)", json: ["short": "OMG", "long": "Oh My Gosh"], auth: .bearer(ownerLogin.value))
            XCTAssertEqual(update.status.code, 200, update.bodyString)
            let updated = try update.decode(AcronymAnswer.self)
            XCTAssertEqual(updated.long, "Oh My Gosh")
            XCTAssertEqual(updated.user.id, owner.id, "an update keeps the owner")
            let removed = try await app.client.send(.delete, "/api/acronyms/\(acronym.id)", auth: .bearer(ownerLogin.value))
            XCTAssertEqual(removed.status.code, 204, removed.bodyString)
        }
    }

    func testDefaultPolicyIsTheBooks() async throws {
        try await withTestApp { app in
            let owner = try await User.create(on: app)
            let editor = try await User.create(on: app)
            let acronym = try await Acronym.create(short: "TIL", long: "Today I Learned", user: owner, on: app)
            let editorLogin = try await app.client.session(editor.username)
            let update = try await app.client.send(
                .put, "/api/acronyms/\(acronym.id)", json: ["short": "TIL", "long": "Today I Laughed"], auth: .bearer(editorLogin.value))
            XCTAssertEqual(update.status.code, 200, update.bodyString)
            XCTAssertEqual(try update.decode(AcronymAnswer.self).user.id, editor.id, "the editor becomes the owner")
            let other = try await Acronym.create(user: owner, on: app)
            let delete = try await app.client.send(.delete, "/api/acronyms/\(other.id)", auth: .bearer(editorLogin.value))
            XCTAssertEqual(delete.status.code, 204, delete.bodyString)
        }
    }
}
