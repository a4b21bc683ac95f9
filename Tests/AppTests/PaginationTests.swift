import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `?limit=` and `?cursor=` on every list route: pages walked through their `Link: rel="next"`
/// headers give back the full list, once each and in order; mistakes are 400s.
final class PaginationTests: XCTestCase {
    func testWalkingAcronymPagesGivesEveryRowOnceInOrder() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for index in 0..<10 { _ = try await Acronym.create(short: "A\(index)", user: user, on: app) }
            let full = try await app.ids(of: "/api/acronyms")
            XCTAssertEqual(full.count, 10)
            for limit in [1, 3, 5, 10, 11] {
                let pages = try await app.walk("/api/acronyms?limit=\(limit)")
                XCTAssertEqual(pages.flatMap { $0 }, full, "limit \(limit)")
                XCTAssertEqual(pages.count, max(1, (10 + limit - 1) / limit), "limit \(limit): no empty page after an exact fit")
                XCTAssertTrue(pages.dropLast().allSatisfy { $0.count == limit }, "limit \(limit)")
            }
        }
    }

    func testSortedPagesBreakTiesOnShortInCreationOrder() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for short in ["b", "a", "b", "c", "a", "b", "B", "a"] { _ = try await Acronym.create(short: short, user: user, on: app) }
            let full = try await app.ids(of: "/api/acronyms/sorted")
            for limit in [1, 2, 3] {
                let walked = try await app.walk("/api/acronyms/sorted?limit=\(limit)").flatMap { $0 }
                XCTAssertEqual(walked, full, "limit \(limit)")
            }
        }
    }

    func testSearchKeepsItsTermAcrossPages() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for index in 0..<7 {
                _ = try await Acronym.create(short: index.isMultiple(of: 2) ? "IT IS" : "no", long: "x \(index)", user: user, on: app)
            }
            let first = try await app.client.send(.get, "/api/acronyms/search?term=IT+IS&limit=2")
            let link = try XCTUnwrap(first.headers["Link"])
            XCTAssertTrue(link.hasPrefix("</api/acronyms/search?term=IT%20IS&limit=2&cursor="), link)
            XCTAssertTrue(link.hasSuffix(#">; rel="next""#), link)
            let walked = try await app.walk("/api/acronyms/search?term=IT%20IS&limit=2")
            XCTAssertEqual(walked.map(\.count), [2, 2])
            let full = try await app.ids(of: "/api/acronyms/search?term=IT%20IS")
            XCTAssertEqual(walked.flatMap { $0 }, full)
        }
    }

    func testEveryListRoutePages() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let category = try await App.Category.create(on: app)
            var acronyms: [Acronym] = []
            for index in 0..<5 { acronyms.append(try await Acronym.create(short: "S\(index)", user: user, on: app)) }
            for index in 0..<5 { _ = try await App.Category.create(name: "C\(index)", on: app) }
            let categories = CategoryRepository(db: app.til.db)
            for acronym in acronyms.reversed() { try await categories.attach(acronym: acronym.id, category: category.id) }
            for other in try await categories.all().items { try await categories.attach(acronym: acronyms[0].id, category: other.id) }
            for _ in 0..<4 { _ = try await User.create(on: app) }
            let login = try await app.client.session(user.username)
            for _ in 0..<3 { _ = try await app.client.session(user.username) }

            let routes = [
                "/api/users", "/api/users/\(user.id)/acronyms", "/api/acronyms", "/api/acronyms/sorted",
                "/api/acronyms/\(acronyms[0].id)/categories", "/api/categories", "/api/categories/\(category.id)/acronyms",
                "/api/users/me/sessions",
            ]
            for route in routes {
                let full = try await app.ids(of: route, auth: .bearer(login.value))
                XCTAssertGreaterThanOrEqual(full.count, 4, route)
                let walked = try await app.walk("\(route)?limit=2", auth: .bearer(login.value))
                XCTAssertEqual(walked.flatMap { $0 }, full, route)
                XCTAssertEqual(walked.count, (full.count + 1) / 2, route)
            }
        }
    }

    func testWithoutLimitTheAnswerIsTheWholeArrayWithoutLink() async throws {
        try await withTestApp { app in
            try await app.til.db.execute("""
                INSERT INTO categories (id, name) SELECT gen_random_uuid(), 'c' || g FROM generate_series(1, 1100) g
                """)
            let response = try await app.client.send(.get, "/api/categories")
            XCTAssertEqual(response.status.code, 200)
            XCTAssertNil(response.headers["Link"])
            XCTAssertEqual(try response.decode([App.Category].self).count, 1100)

            let largest = try await app.client.send(.get, "/api/categories?limit=1000")
            XCTAssertEqual(try largest.decode([App.Category].self).count, 1000)
            XCTAssertNotNil(largest.headers["Link"])
        }
    }

    func testACursorWithoutLimitGetsTheDefaultPageSize() async throws {
        try await withTestApp { app in
            try await app.til.db.execute("""
                INSERT INTO categories (id, name) SELECT gen_random_uuid(), 'c' || g FROM generate_series(1, 150) g
                """)
            let first = try await app.client.send(.get, "/api/categories?limit=1")
            let cursor = try XCTUnwrap(nextCursor(first))
            let second = try await app.client.send(.get, "/api/categories?cursor=\(cursor)")
            XCTAssertEqual(second.status.code, 200, second.bodyString)
            XCTAssertEqual(try second.decode([App.Category].self).count, PageRequest.defaultLimit)
            XCTAssertTrue(second.headers["Link"]?.contains("limit=\(PageRequest.defaultLimit)&") == true)
        }
    }

    func testBadLimitsAndCursorsAre400s() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for _ in 0..<3 { _ = try await Acronym.create(user: user, on: app) }
            let page = try await app.client.send(.get, "/api/acronyms?limit=1")
            let cursor = try XCTUnwrap(nextCursor(page))
            var tampered = Array(cursor)
            tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"

            let cases: [(query: String, mentions: String)] = [
                ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=abc", "limit"), ("limit=-1", "limit"),
                ("limit=1.5", "limit"), ("limit=", "limit"), ("limit=%2B5", "limit"), ("limit=99999999999999999999", "limit"),
                ("cursor=", "cursor"), ("cursor=not-a-cursor", "cursor"), ("cursor=\(String(tampered))", "cursor"),
                ("cursor=\(cursor)x", "cursor"), ("cursor=\(cursor.dropLast(4))", "cursor"),
                ("limit=2&cursor=%3D%3D", "cursor"), ("cursor=\(String(repeating: "A", count: 600))", "cursor"),
            ]
            for (query, mentions) in cases {
                let response = try await app.client.send(.get, "/api/acronyms?\(query)")
                XCTAssertEqual(response.status.code, 400, query)
                let error = try response.decode(ErrorAnswer.self)
                XCTAssertTrue(error.error)
                XCTAssertTrue(error.reason.lowercased().contains(mentions), "\(query): \(error.reason)")
            }
            let elsewhere = try await app.client.send(.get, "/api/acronyms/sorted?cursor=\(cursor)")
            XCTAssertEqual(elsewhere.status.code, 400, "a cursor of another list")
            XCTAssertTrue(try elsewhere.decode(ErrorAnswer.self).reason.contains("another list"))
        }
    }

    func testCursorsRoundTripAndRefuseAnotherListsPosition() throws {
        let position = ListPosition.created(seq: 42, short: "Ünïcode \"quoted\"")
        let cursor = Cursor.encode(position, of: .acronymsSorted)
        XCTAssertEqual(try Cursor.decode(cursor, of: .acronymsSorted), position)
        XCTAssertThrowsError(try Cursor.decode(cursor, of: .acronyms))
        let session = ListPosition.session(createdAt: 1_795_000_000_123_456, id: UUID())
        XCTAssertEqual(try Cursor.decode(Cursor.encode(session, of: .sessions), of: .sessions), session)
        XCTAssertThrowsError(try Cursor.decode(Cursor.encode(session, of: .acronyms), of: .acronyms), "a session's position elsewhere")
        XCTAssertThrowsError(try Cursor.decode(Cursor.encode(.created(seq: 3, short: nil), of: .sessions), of: .sessions))
        XCTAssertTrue(cursor.utf8.allSatisfy { $0 < 0x80 && ($0 == 0x2D || $0 == 0x5F || Character(Unicode.Scalar($0)).isLetter
            || Character(Unicode.Scalar($0)).isNumber) }, "base64url only: \(cursor)")
    }
}

/// The cursor in a response's `Link: <…>; rel="next"` header, or nil on a last page.
private func nextCursor(_ response: TestResponse) -> String? {
    guard let target = nextTarget(response), let range = target.range(of: "cursor=") else { return nil }
    return String(target[range.upperBound...].prefix { $0 != "&" })
}

/// The relative URL of `Link: <…>; rel="next"`, or nil without one.
func nextTarget(_ response: TestResponse) -> String? {
    guard let link = response.headers["Link"], link.hasSuffix(#">; rel="next""#), link.hasPrefix("<") else { return nil }
    return String(link.dropFirst().prefix { $0 != ">" })
}

extension TestApp {
    /// The ids of a list route's whole answer (no Link header expected), in order.
    func ids(of path: String, auth: TestAuth? = nil) async throws -> [String] {
        let response = try await client.send(.get, path, auth: auth)
        XCTAssertEqual(response.status.code, 200, "\(path): \(response.bodyString)")
        XCTAssertNil(response.headers["Link"], path)
        return try Self.ids(response)
    }

    /// Follows `Link: rel="next"` from `path` until a page has none; the ids of each page.
    /// Bounded, so a link that never ends fails the test instead of hanging it.
    func walk(_ path: String, auth: TestAuth? = nil) async throws -> [[String]] {
        var pages: [[String]] = []
        var next: String? = path
        while let target = next {
            guard pages.count < 100 else { XCTFail("more than 100 pages from \(path)"); break }
            let response = try await client.send(.get, target, auth: auth)
            XCTAssertEqual(response.status.code, 200, "\(target): \(response.bodyString)")
            pages.append(try Self.ids(response))
            next = nextTarget(response)
        }
        return pages
    }

    private static func ids(_ response: TestResponse) throws -> [String] {
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        return try rows.map { try XCTUnwrap($0["id"] as? String) }
    }
}
