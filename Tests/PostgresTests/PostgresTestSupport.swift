import Foundation
import Logging
import Postgres
import WebTesting
import XCTest

/// The test database (`make test` sets DATABASE_URL; see scripts/local-postgres.sh); skips
/// the test without one.
func testConfiguration() throws -> PostgresConfiguration {
    try PostgresConfiguration(url: try testDatabaseURL())
}

func makeClient(poolSize: Int? = nil, acquireTimeout: Duration? = nil) throws -> PostgresClient {
    var configuration = try testConfiguration()
    if let poolSize { configuration.poolSize = poolSize }
    if let acquireTimeout { configuration.acquireTimeout = acquireTimeout }
    return PostgresClient(configuration: configuration, logger: .quiet("postgres-test", level: .error))
}

/// A table name no other test uses.
func uniqueTable(_ prefix: String = "pgtest") -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
