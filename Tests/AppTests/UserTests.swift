import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The book's UserTests, over the real server and database.
final class UserTests: XCTestCase {
    let usersName = "Alice"
    let usersUsername = "alicea"
    let usersURI = "/api/users/"

    func testUsersCanBeRetrievedFromAPI() async throws {
        try await withTestApp { app in
            let user = try await User.create(name: usersName, username: usersUsername, on: app)
            _ = try await User.create(on: app)

            let users = try await app.getResponse(to: usersURI, decodeTo: [User.Public].self)
            XCTAssertEqual(users.count, 3)  // admin + the two
            XCTAssertEqual(users[1].name, usersName)
            XCTAssertEqual(users[1].username, usersUsername)
            XCTAssertEqual(users[1].id, user.id)
        }
    }

    func testUserCanBeSavedWithAPI() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            struct NewUser: Encodable { var name, username, password: String }
            let created = try await app.getResponse(
                to: usersURI, method: .post, data: NewUser(name: usersName, username: usersUsername, password: "password"),
                decodeTo: User.Public.self, loggedInRequest: true)
            XCTAssertEqual(created.name, usersName)
            XCTAssertEqual(created.username, usersUsername)

            let users = try await app.getResponse(to: usersURI, decodeTo: [User.Public].self)
            XCTAssertEqual(users.count, 2)
            XCTAssertEqual(users[1], created)
            // The new user can log in with the password it was created with.
            let token = try await app.client.session(usersUsername)
            XCTAssertEqual(token.user.id, created.id)
        }
    }

    func testGettingASingleUserFromTheAPI() async throws {
        try await withTestApp { app in
            let user = try await User.create(name: usersName, username: usersUsername, on: app)
            let received = try await app.getResponse(to: "\(usersURI)\(user.id)", decodeTo: User.Public.self)
            XCTAssertEqual(received, user.asPublic)
        }
    }

    func testGettingAUsersAcronymsFromTheAPI() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let acronym1 = try await Acronym.create(short: "OMG", long: "Oh My God", user: user, on: app)
            _ = try await Acronym.create(short: "LOL", long: "Laugh Out Loud", user: user, on: app)
            _ = try await Acronym.create(on: app)  // someone else's

            let acronyms = try await app.getResponse(to: "\(usersURI)\(user.id)/acronyms", decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms.count, 2)
            XCTAssertEqual(acronyms[0], acronym1)
        }
    }

    func testDuplicateUsernameIs409() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            _ = try await User.create(username: usersUsername, on: app)
            let response = try await app.sendRequest(
                to: usersURI, method: .post, body: ["name": "Other", "username": usersUsername, "password": "password"],
                loggedInRequest: true)
            XCTAssertEqual(response.status.code, 409)
        }
    }

    func testUserValidation() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let cases: [[String: String]] = [
                ["name": "", "username": "u1", "password": "password"],
                ["name": "N", "username": "", "password": "password"],
                ["name": "N", "username": "u2", "password": "short"],
                ["name": "N", "username": "u3", "password": String(repeating: "p", count: 73)],
                ["name": String(repeating: "n", count: 129), "username": "u4", "password": "password"],
                ["name": "N", "username": "u5"],
            ]
            for body in cases {
                let response = try await app.sendRequest(to: usersURI, method: .post, body: body, loggedInRequest: true)
                XCTAssertEqual(response.status.code, 400, "\(body): \(response.bodyString)")
                XCTAssertTrue(response.bodyString.contains("\"reason\""))
            }
        }
    }

    func testPasswordAndHashAreNeverReturned() async throws {
        try await withTestApp { app in
            let created = try await app.sendRequest(
                to: usersURI, method: .post, body: ["name": "N", "username": "secretive", "password": "hunter2hunter2"],
                loggedInRequest: true)
            let user = try created.decode(User.Public.self)
            // A successful login as that user, and everything that lists or shows users.
            let login = try await app.client.send(.post, "\(usersURI)login", auth: .basic("secretive", "hunter2hunter2"))
            XCTAssertEqual(login.status, .ok)
            let bearer = TestAuth.bearer(try login.decode(Token.self).value)
            for response in [
                created, login,
                try await app.sendRequest(to: usersURI, method: .get),
                try await app.sendRequest(to: "\(usersURI)\(user.id)", method: .get),
                try await app.client.send(.get, "\(usersURI)me", auth: bearer),
                try await app.client.send(.get, "\(usersURI)me/sessions", auth: bearer),
            ] {
                XCTAssertEqual(response.status.code, 200, response.bodyString)
                XCTAssertFalse(response.bodyString.lowercased().contains("password"), response.bodyString)
                XCTAssertFalse(response.bodyString.contains("$2b$"), response.bodyString)
                XCTAssertFalse(response.bodyString.contains("hunter2"), response.bodyString)
            }
        }
    }

    func testUnknownAndMalformedUserIDs() async throws {
        try await withTestApp { app in
            let unknown = try await app.sendRequest(to: "\(usersURI)\(UUID())", method: .get).status.code
            XCTAssertEqual(unknown, 404)
            let malformed = try await app.sendRequest(to: "\(usersURI)not-a-uuid", method: .get).status.code
            XCTAssertEqual(malformed, 400)
            let unknownAcronyms = try await app.sendRequest(to: "\(usersURI)\(UUID())/acronyms", method: .get).status.code
            XCTAssertEqual(unknownAcronyms, 404)
        }
    }
}
