import Foundation
import TILClient
import XCTest

/// Lists as an `AsyncSequence` of pages that follows `Link: <…>; rel="next"`.
final class PagingTests: XCTestCase {
    func testLinkHeadersAreReadAsRFC8288WritesThem() throws {
        let base = URL(string: "http://127.0.0.1:8080/api/acronyms?limit=2")!
        let header = LinkHeader(
            parsing: #"</api/acronyms?limit=2&cursor=abc%3D>; rel="next"; title="a, b; c", <http://127.0.0.1:8080/first>; REL="first prev""#,
            relativeTo: base)
        XCTAssertEqual(header.target("next")?.absoluteString, "http://127.0.0.1:8080/api/acronyms?limit=2&cursor=abc%3D")
        XCTAssertEqual(header.target("PREV")?.absoluteString, "http://127.0.0.1:8080/first")
        XCTAssertNil(header.target("last"))
        XCTAssertNil(LinkHeader(parsing: "garbage, <>; rel", relativeTo: base).target("next"))
        XCTAssertEqual(LinkHeader(parsing: "<?cursor=x>;rel=next", relativeTo: base).target("next")?.absoluteString,
                       "http://127.0.0.1:8080/api/acronyms?cursor=x")
    }

    func testPagesWalkEveryRowOnce() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            var created: [Acronym] = []
            for short in ["A1", "B2", "C3"] { created.append(try await til.acronyms.create(short: short, long: "Paging \(short)")) }

            let whole = try await til.users.acronyms(of: user.id).firstPage()
            XCTAssertEqual(whole.items, created, "without a limit: the book's full array")
            XCTAssertNil(whole.next)

            let first = try await til.users.acronyms(of: user.id, limit: 1).firstPage()
            guard first.next != nil else {
                throw XCTSkip("the server sent no Link for limit=1 on a 3-row list: pagination not merged yet")
            }
            XCTAssertEqual(first.items.count, 1)
            var sizes: [Int] = []
            var rows: [Acronym] = []
            for try await page in til.users.acronyms(of: user.id, limit: 2) {
                sizes.append(page.items.count)
                rows += page.items
            }
            XCTAssertEqual(sizes, [2, 1])
            XCTAssertEqual(rows, created)
        }
    }

    func testALimitOutsideTheRangeIsRefusedBeforeSending() async throws {
        let til = APIClient(server: URL(string: "http://127.0.0.1:1")!)
        do {
            _ = try await til.acronyms.list(limit: 0).collect()
            XCTFail("limit 0")
        } catch TILError.invalidArgument(let reason) {
            XCTAssertEqual(reason, "A page holds 1 to 1000 rows, not 0.")
        }
    }
}
