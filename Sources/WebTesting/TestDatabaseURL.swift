import Foundation
import XCTest

/// The test database: `DATABASE_URL`, which `make test` points at a local PostgreSQL it starts
/// (scripts/local-postgres.sh). Without it the calling test is skipped, not failed, so a bare
/// `swift test` still runs every test that needs no database.
public func testDatabaseURL() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
        throw XCTSkip("DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL")
    }
    return url
}
