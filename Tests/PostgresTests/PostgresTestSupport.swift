import Foundation
import Logging
import Postgres
import XCTest

/// The test database (the Makefile exports DATABASE_URL; see scripts/local-postgres.sh).
func testConfiguration() throws -> PostgresConfiguration {
    guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
        throw XCTSkip("DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL")
    }
    return try PostgresConfiguration(url: url)
}

func makeClient(poolSize: Int? = nil, acquireTimeout: Duration? = nil) throws -> PostgresClient {
    var configuration = try testConfiguration()
    if let poolSize { configuration.poolSize = poolSize }
    if let acquireTimeout { configuration.acquireTimeout = acquireTimeout }
    var logger = Logger(label: "postgres-test")
    logger.logLevel = .error
    return PostgresClient(configuration: configuration, logger: logger)
}

/// A table name no other test uses.
func uniqueTable(_ prefix: String = "pgtest") -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
