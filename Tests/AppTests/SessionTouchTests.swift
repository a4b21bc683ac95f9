import Postgres
import XCTest
@testable import App

/// An ordinary bearer token pays nothing for personal access tokens: its check's fragments are
/// the text the statement always had (no bound address, no column more, no extra condition),
/// so the token check and the checked writes run the very statements they ran before.
final class SessionTouchTests: XCTestCase {
    func testAnOrdinaryTokensFragmentsAreTheStatementsOwnText() {
        let ordinary = SessionTouch(personalFrom: nil)
        XCTAssertEqual(ordinary.isDue.sql, "s.last_used_at < now() - interval '60 seconds'")
        XCTAssertEqual(ordinary.assignments.sql, "last_used_at = now()")
        XCTAssertEqual(ordinary.restriction.sql, "")
        XCTAssertTrue(ordinary.isDue.binds.isEmpty && ordinary.assignments.binds.isEmpty && ordinary.restriction.binds.isEmpty)
    }

    func testAPersonalAccessTokensUseIsRecordedWithItsAddress() {
        let personal = SessionTouch(personalFrom: "192.0.2.7")
        XCTAssertEqual(personal.isDue.sql, "(s.last_used_from IS NULL OR s.last_used_at < now() - interval '60 seconds')")
        XCTAssertEqual(personal.assignments.sql, "last_used_at = now(), last_used_from = $1")
        XCTAssertEqual(personal.assignments.binds.count, 1)
        XCTAssertEqual(personal.restriction.sql, " AND s.kind = 'pat'")
    }
}
