import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The book's AcronymTests.
final class AcronymTests: XCTestCase {
    let acronymsURI = "/api/acronyms/"
    let acronymShort = "OMG"
    let acronymLong = "Oh My God"

    func testAcronymsCanBeRetrievedFromAPI() async throws {
        try await withTestApp { app in
            let acronym1 = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            _ = try await Acronym.create(on: app)
            let acronyms = try await app.getResponse(to: acronymsURI, decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms.count, 2)
            XCTAssertEqual(acronyms[0], acronym1)
        }
    }

    func testAcronymCanBeSavedWithAPI() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let received = try await app.getResponse(
                to: acronymsURI, method: .post, data: ["short": acronymShort, "long": acronymLong],
                decodeTo: Acronym.self, loggedInUser: user)
            XCTAssertEqual(received.short, acronymShort)
            XCTAssertEqual(received.long, acronymLong)
            XCTAssertEqual(received.user.id, user.id)
            let acronyms = try await app.getResponse(to: acronymsURI, decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms, [received])
        }
    }

    func testGettingASingleAcronymFromTheAPI() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            let returned = try await app.getResponse(to: "\(acronymsURI)\(acronym.id)", decodeTo: Acronym.self)
            XCTAssertEqual(returned, acronym)
        }
    }

    func testUpdatingAnAcronymMakesTheCallerTheOwner() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            let newUser = try await User.create(on: app)
            let newLong = "Oh My Gosh"
            let updated = try await app.getResponse(
                to: "\(acronymsURI)\(acronym.id)", method: .put, data: ["short": acronymShort, "long": newLong],
                decodeTo: Acronym.self, loggedInUser: newUser)
            XCTAssertEqual(updated.long, newLong)
            XCTAssertEqual(updated.user.id, newUser.id)
            let returned = try await app.getResponse(to: "\(acronymsURI)\(acronym.id)", decodeTo: Acronym.self)
            XCTAssertEqual(returned, Acronym(id: acronym.id, short: acronymShort, long: newLong, user: UserReference(id: newUser.id)))
        }
    }

    func testDeletingAnAcronym() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            var acronyms = try await app.getResponse(to: acronymsURI, decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms.count, 1)
            let deleted = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)", method: .delete, loggedInRequest: true)
            XCTAssertEqual(deleted.status.code, 204)
            acronyms = try await app.getResponse(to: acronymsURI, decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms.count, 0)
            let again = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)", method: .delete, loggedInRequest: true)
            XCTAssertEqual(again.status.code, 404)
        }
    }

    func testSearchAcronymShort() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            _ = try await Acronym.create(on: app)
            let acronyms = try await app.getResponse(to: "\(acronymsURI)search?term=OMG", decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms, [acronym])
        }
    }

    func testSearchAcronymLong() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            let acronyms = try await app.getResponse(to: "\(acronymsURI)search?term=Oh+My+God", decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms, [acronym])
        }
    }

    func testSearchWithoutTermIs400() async throws {
        try await withTestApp { app in
            let missing = try await app.sendRequest(to: "\(acronymsURI)search", method: .get)
            let empty = try await app.sendRequest(to: "\(acronymsURI)search?term=", method: .get)
            XCTAssertEqual(missing.status.code, 400)
            XCTAssertEqual(empty.status.code, 400)
        }
    }

    func testGetFirstAcronym() async throws {
        try await withTestApp { app in
            let none = try await app.sendRequest(to: "\(acronymsURI)first", method: .get)
            XCTAssertEqual(none.status.code, 404)
            let acronym = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            _ = try await Acronym.create(on: app)
            _ = try await Acronym.create(on: app)
            let first = try await app.getResponse(to: "\(acronymsURI)first", decodeTo: Acronym.self)
            XCTAssertEqual(first, acronym)
        }
    }

    func testSortingAcronyms() async throws {
        try await withTestApp { app in
            let short2 = "LOL"
            let acronym1 = try await Acronym.create(short: acronymShort, long: acronymLong, on: app)
            let acronym2 = try await Acronym.create(short: short2, long: "Laugh Out Loud", on: app)
            let sorted = try await app.getResponse(to: "\(acronymsURI)sorted", decodeTo: [Acronym].self)
            XCTAssertEqual(sorted, [acronym2, acronym1])
        }
    }

    func testGettingAnAcronymsUser() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let acronym = try await Acronym.create(user: user, on: app)
            let acronymsUser = try await app.getResponse(to: "\(acronymsURI)\(acronym.id)/user", decodeTo: User.Public.self)
            XCTAssertEqual(acronymsUser, user.asPublic)
        }
    }

    func testAcronymsCategories() async throws {
        try await withTestApp { app in
            let category = try await App.Category.create(on: app)
            let category2 = try await App.Category.create(name: "Funny", on: app)
            let acronym = try await Acronym.create(on: app)
            let link1 = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)/categories/\(category.id)", method: .post, loggedInRequest: true)
            let link2 = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)/categories/\(category2.id)", method: .post, loggedInRequest: true)
            let again = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)/categories/\(category.id)", method: .post, loggedInRequest: true)
            XCTAssertEqual([link1.status.code, link2.status.code, again.status.code], [201, 201, 201])

            var categories = try await app.getResponse(to: "\(acronymsURI)\(acronym.id)/categories", decodeTo: [App.Category].self)
            XCTAssertEqual(categories, [category, category2], "attaching twice keeps one link")

            let unlink = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)/categories/\(category.id)", method: .delete, loggedInRequest: true)
            XCTAssertEqual(unlink.status.code, 204)
            categories = try await app.getResponse(to: "\(acronymsURI)\(acronym.id)/categories", decodeTo: [App.Category].self)
            XCTAssertEqual(categories, [category2])
        }
    }

    func testLinkingUnknownItemsIs404() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            let category = try await App.Category.create(on: app)
            let paths = [
                "\(acronymsURI)\(UUID())/categories/\(category.id)", "\(acronymsURI)\(acronym.id)/categories/\(UUID())",
            ]
            for path in paths {
                let attach = try await app.sendRequest(to: path, method: .post, loggedInRequest: true)
                let detach = try await app.sendRequest(to: path, method: .delete, loggedInRequest: true)
                XCTAssertEqual([attach.status.code, detach.status.code], [404, 404], path)
            }
            let malformed = try await app.sendRequest(to: "\(acronymsURI)\(acronym.id)/categories/nope", method: .post, loggedInRequest: true)
            XCTAssertEqual(malformed.status.code, 400)
        }
    }

    func testAcronymErrors() async throws {
        try await withTestApp { app in
            let unknown = try await app.sendRequest(to: "\(acronymsURI)\(UUID())", method: .get)
            let malformed = try await app.sendRequest(to: "\(acronymsURI)OMG-is-not-a-uuid", method: .get)
            let unknownUser = try await app.sendRequest(to: "\(acronymsURI)\(UUID())/user", method: .get)
            let unknownUpdate = try await app.sendRequest(
                to: "\(acronymsURI)\(UUID())", method: .put, body: ["short": "A", "long": "B"], loggedInRequest: true)
            XCTAssertEqual([unknown.status.code, malformed.status.code, unknownUser.status.code, unknownUpdate.status.code], [404, 400, 404, 404])

            let tooLong = try await app.sendRequest(
                to: acronymsURI, method: .post, body: ["short": String(repeating: "S", count: 65), "long": "x"], loggedInRequest: true)
            let emptyShort = try await app.sendRequest(to: acronymsURI, method: .post, body: ["short": "", "long": "x"], loggedInRequest: true)
            let wrongType = try await app.sendRequest(to: acronymsURI, method: .post, body: ["short": "A"], loggedInRequest: true)
            XCTAssertEqual([tooLong.status.code, emptyShort.status.code, wrongType.status.code], [400, 400, 400])
            XCTAssertTrue(wrongType.bodyString.contains("long"), wrongType.bodyString)

            let notJSON = try await app.sendRequest(
                to: acronymsURI, method: .post, headers: ["Content-Type": "text/plain"], loggedInRequest: true)
            XCTAssertEqual(notJSON.status.code, 415)
        }
    }
}
