import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// Real answers of the test server, through the main flows and their errors, validated against
/// the document the same server serves: every status listed, every body valid, every required
/// header there.
final class OpenAPIResponseTests: XCTestCase {
    func testTheAccountFlowMatchesTheDocument() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let client = app.client
            contract.check(try await client.send(.get, "/health"), .get, "/health")
            contract.check(try await client.send(.get, "/ready"), .get, "/ready")
            contract.check(try await client.send(.get, "/openapi.json"), .get, "/openapi.json")

            contract.check(try await client.login("admin", "wrong"), .post, "/api/users/login")
            contract.check(try await client.send(.post, "/api/users/login"), .post, "/api/users/login")
            contract.check(try await client.login("admin", scope: "everything"), .post, "/api/users/login")
            let admin = try await client.session("admin")
            contract.check(try await client.login("admin"), .post, "/api/users/login")

            let create = try await client.send(.post, "/api/users", json: ["name": "Tim", "username": "timc", "password": "s3cret-pass"], auth: .bearer(admin.value))
            contract.check(create, .post, "/api/users")
            contract.check(try await client.send(.post, "/api/users", json: ["name": "Tim", "username": "TIMC", "password": "s3cret-pass"], auth: .bearer(admin.value)), .post, "/api/users")
            contract.check(try await client.send(.post, "/api/users", json: ["name": "Tim"], auth: .bearer(admin.value)), .post, "/api/users")
            contract.check(try await client.send(.post, "/api/users", json: ["name": "Tim", "username": "x", "password": "s3cret-pass"]), .post, "/api/users")
            contract.check(try await client.send(.post, "/api/users", body: Array("name=Tim".utf8), auth: .bearer(admin.value)), .post, "/api/users")
            let narrow = try await client.session("admin", scope: "acronyms:write")
            contract.check(try await client.send(.post, "/api/users", json: ["name": "T", "username": "t2", "password": "s3cret-pass"], auth: .bearer(narrow.value)), .post, "/api/users")

            let tim = try await client.session("timc", "s3cret-pass", headers: ["User-Agent": "contract-test"])
            contract.check(try await client.send(.get, "/api/users/me", auth: .bearer(tim.value)), .get, "/api/users/me")
            contract.check(try await client.send(.get, "/api/users/me", auth: .bearer("not-a-token")), .get, "/api/users/me")
            contract.check(try await client.send(.get, "/api/users/me"), .get, "/api/users/me")
            _ = try await client.session("timc", "s3cret-pass")
            contract.check(try await client.send(.get, "/api/users/me/sessions", auth: .bearer(tim.value)), .get, "/api/users/me/sessions")
            let firstPage = try await client.send(.get, "/api/users/me/sessions?limit=1", auth: .bearer(tim.value))
            XCTAssertNotNil(firstPage.headers["Link"])
            contract.check(firstPage, .get, "/api/users/me/sessions")
            contract.check(try await client.send(.get, "/api/users/me/sessions", auth: .bearer(narrow.value)), .get, "/api/users/me/sessions")
            contract.check(try await client.send(.delete, "/api/users/me/sessions/\(UUID())", auth: .bearer(tim.value)), .delete, "/api/users/me/sessions/{sessionID}")
            contract.check(try await client.send(.delete, "/api/users/me/sessions/nope", auth: .bearer(tim.value)), .delete, "/api/users/me/sessions/{sessionID}")

            let refreshed = try await client.refresh(tim.refreshToken)
            contract.check(refreshed, .post, "/api/users/refresh")
            contract.check(try await client.refresh(tim.refreshToken), .post, "/api/users/refresh")
            contract.check(try await client.send(.post, "/api/users/refresh", json: ["token": "x"]), .post, "/api/users/refresh")

            let other = try await client.session("timc", "s3cret-pass")
            let wrong = ["currentPassword": "not-it", "newPassword": "another-pass"]
            contract.check(try await client.send(.put, "/api/users/me/password", json: wrong, auth: .bearer(other.value)), .put, "/api/users/me/password")
            let right = ["currentPassword": "s3cret-pass", "newPassword": "another-pass"]
            contract.check(try await client.send(.put, "/api/users/me/password", json: right, auth: .bearer(other.value)), .put, "/api/users/me/password")
            contract.check(try await client.send(.post, "/api/users/logout-all", auth: .bearer(narrow.value)), .post, "/api/users/logout-all")
            contract.check(try await client.send(.post, "/api/users/logout", auth: .bearer(other.value)), .post, "/api/users/logout")
            contract.check(try await client.send(.post, "/api/users/logout", auth: .bearer(other.value)), .post, "/api/users/logout")
            contract.check(try await client.send(.post, "/api/users/logout-all", auth: .bearer(admin.value)), .post, "/api/users/logout-all")
        }
    }

    func testTheCatalogueFlowMatchesTheDocument() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let client = app.client
            let token = try await client.session("admin").value
            let user = try await app.getResponse(to: "/api/users/me", decodeTo: User.Public.self, auth: .bearer(token))

            let created = try await client.send(.post, "/api/acronyms", json: ["short": "OMG", "long": "Oh My God"], auth: .bearer(token))
            contract.check(created, .post, "/api/acronyms")
            let acronym = try created.decode(Acronym.self)
            _ = try await client.send(.post, "/api/acronyms", json: ["short": "AFK", "long": "Away From Keyboard"], auth: .bearer(token))
            contract.check(try await client.send(.post, "/api/acronyms", json: ["short": " ", "long": "x"], auth: .bearer(token)), .post, "/api/acronyms")
            contract.check(try await client.send(.post, "/api/acronyms", json: ["short": "A", "long": "B"]), .post, "/api/acronyms")
            let category = try await client.send(.post, "/api/categories", json: ["name": "Teenager"], auth: .bearer(token))
            contract.check(category, .post, "/api/categories")
            let categoryID = try category.decode(App.Category.self).id
            contract.check(try await client.send(.post, "/api/categories", json: ["name": 12], auth: .bearer(token)), .post, "/api/categories")

            let link = "/api/acronyms/\(acronym.id)/categories/\(categoryID)"
            contract.check(try await client.send(.post, link, auth: .bearer(token)), .post, "/api/acronyms/{acronymID}/categories/{categoryID}")
            contract.check(try await client.send(.post, "/api/acronyms/\(UUID())/categories/\(categoryID)", auth: .bearer(token)),
                           .post, "/api/acronyms/{acronymID}/categories/{categoryID}")

            let reads: [(String, String)] = [
                ("/api/acronyms", "/api/acronyms"), ("/api/acronyms?limit=1", "/api/acronyms"),
                ("/api/acronyms?limit=0", "/api/acronyms"), ("/api/acronyms?cursor=bad", "/api/acronyms"),
                ("/api/acronyms/search?term=OMG", "/api/acronyms/search"), ("/api/acronyms/search", "/api/acronyms/search"),
                ("/api/acronyms/first", "/api/acronyms/first"), ("/api/acronyms/sorted?limit=1", "/api/acronyms/sorted"),
                ("/api/acronyms/\(acronym.id)", "/api/acronyms/{acronymID}"), ("/api/acronyms/\(UUID())", "/api/acronyms/{acronymID}"),
                ("/api/acronyms/12", "/api/acronyms/{acronymID}"), ("/api/acronyms/\(acronym.id)/user", "/api/acronyms/{acronymID}/user"),
                ("/api/acronyms/\(acronym.id)/categories", "/api/acronyms/{acronymID}/categories"),
                ("/api/categories", "/api/categories"), ("/api/categories/\(categoryID)", "/api/categories/{categoryID}"),
                ("/api/categories/\(categoryID)/acronyms", "/api/categories/{categoryID}/acronyms"),
                ("/api/categories/\(UUID())/acronyms", "/api/categories/{categoryID}/acronyms"),
                ("/api/users", "/api/users"), ("/api/users/\(user.id)", "/api/users/{userID}"), ("/api/users/\(UUID())", "/api/users/{userID}"),
                ("/api/users/\(user.id)/acronyms?limit=1", "/api/users/{userID}/acronyms"),
            ]
            for (path, documented) in reads { contract.check(try await client.send(.get, path), .get, documented) }

            let update = try await client.send(.put, "/api/acronyms/\(acronym.id)", json: ["short": "OMG", "long": "Oh My Gosh"], auth: .bearer(token))
            contract.check(update, .put, "/api/acronyms/{acronymID}")
            contract.check(try await client.send(.put, "/api/acronyms/\(UUID())", json: ["short": "A", "long": "B"], auth: .bearer(token)), .put, "/api/acronyms/{acronymID}")
            contract.check(try await client.send(.delete, link, auth: .bearer(token)), .delete, "/api/acronyms/{acronymID}/categories/{categoryID}")
            contract.check(try await client.send(.delete, "/api/acronyms/\(acronym.id)", auth: .bearer(token)), .delete, "/api/acronyms/{acronymID}")
            contract.check(try await client.send(.delete, "/api/acronyms/\(acronym.id)", auth: .bearer(token)), .delete, "/api/acronyms/{acronymID}")
            contract.check(try await client.send(.delete, "/api/acronyms/\(UUID())"), .delete, "/api/acronyms/{acronymID}")
        }
    }

    func testTheValidatorRejectsWhatTheSchemasForbid() throws {
        let document = try JSONValue.parse(OpenAPIDocument.bytes)
        let validator = JSONSchemaValidator(document: document)
        let user: JSONValue = .object(["$ref": .string("#/components/schemas/User")])
        let good: [String: JSONValue] = ["id": .string(UUID().uuidString), "name": .string("Tim"), "username": .string("timc")]
        XCTAssertEqual(validator.errors(of: .object(good), against: user), [])
        var missing = good
        missing["username"] = nil
        var extra = good
        extra["passwordHash"] = .string("$2b$...")
        var badID = good
        badID["id"] = .string("12")
        for bad in [missing, extra, badID] { XCTAssertFalse(validator.errors(of: .object(bad), against: user).isEmpty, "\(bad)") }
        let error: JSONValue = .object(["$ref": .string("#/components/schemas/Error")])
        XCTAssertFalse(validator.errors(of: .object(["error": .number(1), "reason": .string("x")]), against: error).isEmpty)
        XCTAssertFalse(validator.errors(of: .array([]), against: error).isEmpty)
    }
}
