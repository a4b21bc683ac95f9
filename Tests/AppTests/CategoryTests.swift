import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The book's CategoryTests.
final class CategoryTests: XCTestCase {
    let categoriesURI = "/api/categories/"
    let categoryName = "Teenager"

    func testCategoriesCanBeRetrievedFromAPI() async throws {
        try await withTestAppInBothModes { app in
            let category = try await App.Category.create(name: categoryName, on: app)
            _ = try await App.Category.create(on: app)
            let categories = try await app.getResponse(to: categoriesURI, decodeTo: [App.Category].self)
            XCTAssertEqual(categories.count, 2)
            XCTAssertEqual(categories[0], category)
        }
    }

    func testCategoryCanBeSavedWithAPI() async throws {
        try await withTestAppInBothModes { app in
            let received = try await app.getResponse(
                to: categoriesURI, method: .post, data: ["name": categoryName], decodeTo: App.Category.self, loggedInRequest: true)
            XCTAssertEqual(received.name, categoryName)
            let categories = try await app.getResponse(to: categoriesURI, decodeTo: [App.Category].self)
            XCTAssertEqual(categories, [received])
        }
    }

    func testGettingASingleCategoryFromTheAPI() async throws {
        try await withTestAppInBothModes { app in
            let category = try await App.Category.create(name: categoryName, on: app)
            let returned = try await app.getResponse(to: "\(categoriesURI)\(category.id)", decodeTo: App.Category.self)
            XCTAssertEqual(returned, category)
        }
    }

    func testGettingACategoriesAcronymsFromTheAPI() async throws {
        try await withTestAppInBothModes { app in
            let acronym = try await Acronym.create(short: "OMG", long: "Oh My God", on: app)
            let acronym2 = try await Acronym.create(on: app)
            let category = try await App.Category.create(name: categoryName, on: app)
            for item in [acronym, acronym2] {
                let response = try await app.sendRequest(
                    to: "/api/acronyms/\(item.id)/categories/\(category.id)", method: .post, loggedInRequest: true)
                XCTAssertEqual(response.status.code, 201)
            }
            let acronyms = try await app.getResponse(to: "\(categoriesURI)\(category.id)/acronyms", decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms, [acronym, acronym2])
        }
    }

    func testCategoryErrors() async throws {
        try await withTestAppInBothModes { app in
            let unknown = try await app.sendRequest(to: "\(categoriesURI)\(UUID())", method: .get).status.code
            XCTAssertEqual(unknown, 404)
            let malformed = try await app.sendRequest(to: "\(categoriesURI)12", method: .get).status.code
            XCTAssertEqual(malformed, 400)
            let unknownAcronyms = try await app.sendRequest(to: "\(categoriesURI)\(UUID())/acronyms", method: .get).status.code
            XCTAssertEqual(unknownAcronyms, 404)
            let empty = try await app.sendRequest(to: categoriesURI, method: .post, body: ["name": "  "], loggedInRequest: true)
            XCTAssertEqual(empty.status.code, 400)
            // Blank in any of Unicode's spaces and line breaks is still empty; a letter among them is not.
            for blank in ["\t\n\r", "\u{A0}\u{3000}", "\u{2028}\u{2029}\u{85}", "\u{2003}\u{202F}\u{205F}\u{1680}"] {
                let answer = try await app.sendRequest(to: categoriesURI, method: .post, body: ["name": blank], loggedInRequest: true)
                XCTAssertEqual(answer.status.code, 400, blank.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
            let spaced = try await app.sendRequest(to: categoriesURI, method: .post, body: ["name": "\u{3000}x\u{3000}"], loggedInRequest: true)
            XCTAssertEqual(spaced.status.code, 200)
            let missing = try await app.sendRequest(to: categoriesURI, method: .post, body: ["title": "x"], loggedInRequest: true)
            XCTAssertEqual(missing.status.code, 400)
            XCTAssertTrue(missing.bodyString.contains("name"), missing.bodyString)
        }
    }
}
