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

    /// Issue 17: linking and unlinking categories changes the acronym too, so `owner` covers them.
    func testOwnerPolicyCoversLinkingAndUnlinkingCategories() async throws {
        try await withTestApp(settings: ["ACRONYM_EDIT_POLICY": "owner"]) { app in
            let owner = try await User.create(on: app)
            let stranger = try await User.create(on: app)
            let acronym = try await Acronym.create(user: owner, on: app)
            let linked = try await App.Category.create(name: "Linked", on: app)
            let other = try await App.Category.create(name: "Other", on: app)
            let ownerLogin = try await app.client.session(owner.username)
            let strangerLogin = try await app.client.session(stranger.username)
            let link = "/api/acronyms/\(acronym.id)/categories/"
            let attached = try await app.client.send(.post, link + "\(linked.id)", auth: .bearer(ownerLogin.value))
            XCTAssertEqual(attached.status.code, 201, attached.bodyString)

            let attach = try await app.client.send(.post, link + "\(other.id)", auth: .bearer(strangerLogin.value))
            XCTAssertEqual(attach.status.code, 403, attach.bodyString)
            XCTAssertEqual(try attach.decode(ErrorAnswer.self).reason, "Only the acronym's owner may change it.")
            let detach = try await app.client.send(.delete, link + "\(linked.id)", auth: .bearer(strangerLogin.value))
            XCTAssertEqual(detach.status.code, 403, detach.bodyString)
            let unchanged = try await categoryNames(of: acronym, on: app)
            XCTAssertEqual(unchanged, ["Linked"], "refused (un)links change nothing")

            let unknown = try await app.client.send(
                .post, "/api/acronyms/\(UUID())/categories/\(other.id)", auth: .bearer(strangerLogin.value))
            XCTAssertEqual(unknown.status.code, 404, "an unknown acronym is still a 404, not a 403")
            let ownDetach = try await app.client.send(.delete, link + "\(linked.id)", auth: .bearer(ownerLogin.value))
            XCTAssertEqual(ownDetach.status.code, 204, ownDetach.bodyString)
            let ownAttach = try await app.client.send(.post, link + "\(other.id)", auth: .bearer(ownerLogin.value))
            XCTAssertEqual(ownAttach.status.code, 201, ownAttach.bodyString)
            let relinked = try await categoryNames(of: acronym, on: app)
            XCTAssertEqual(relinked, ["Other"])
        }
    }

    func testDefaultPolicyLetsAnyoneLinkAndUnlink() async throws {
        try await withTestApp { app in
            let owner = try await User.create(on: app)
            let editor = try await User.create(on: app)
            let acronym = try await Acronym.create(user: owner, on: app)
            let category = try await App.Category.create(on: app)
            let editorLogin = try await app.client.session(editor.username)
            let link = "/api/acronyms/\(acronym.id)/categories/\(category.id)"
            let attach = try await app.client.send(.post, link, auth: .bearer(editorLogin.value))
            XCTAssertEqual(attach.status.code, 201, attach.bodyString)
            let linked = try await categoryNames(of: acronym, on: app)
            XCTAssertEqual(linked, [category.name])
            let detach = try await app.client.send(.delete, link, auth: .bearer(editorLogin.value))
            XCTAssertEqual(detach.status.code, 204, detach.bodyString)
            let unlinked = try await categoryNames(of: acronym, on: app)
            XCTAssertEqual(unlinked, [])
        }
    }

    private func categoryNames(of acronym: Acronym, on app: TestApp) async throws -> [String] {
        let response = try await app.client.send(.get, "/api/acronyms/\(acronym.id)/categories")
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try response.decode([App.Category].self).map(\.name)
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
