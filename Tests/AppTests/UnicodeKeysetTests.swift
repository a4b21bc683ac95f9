import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Keyset pages over text that Unicode spells several ways: `É` composed and decomposed, case
/// pairs, `İ`/`ı`, `ß`/`SS`. The cursor carries the last short exactly as stored (no
/// normalisation, no folding on the way), and the next page starts strictly after it in the
/// database's own order, so a walk one row at a time gives every row once, in the unpaged order.
final class UnicodeKeysetTests: XCTestCase {
    func testSortedPagesWalkEverySpellingOnceInOrder() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let shorts = ["É", "E\u{301}", "é", "e\u{301}", "E", "e", "İ", "I", "i", "ı", "ß", "SS", "ss", "É", "e\u{301}"]
            for short in shorts { _ = try await Acronym.create(short: short, user: user, on: app) }
            let whole = try await app.ids(of: "/api/acronyms/sorted")
            XCTAssertEqual(whole.count, shorts.count)
            for limit in [1, 2, 4] {
                let pages = try await app.walk("/api/acronyms/sorted?limit=\(limit)")
                XCTAssertEqual(pages.flatMap { $0 }, whole, "limit \(limit)")
            }
            let searched = try await app.ids(of: "/api/acronyms/search?term=e")
            let walkedSearch = try await app.walk("/api/acronyms/search?term=e&limit=1")
            XCTAssertEqual(walkedSearch.flatMap { $0 }, searched, "a search walked one row at a time")
        }
    }
}
