import Foundation
import Logging
import WebTesting
import XCTest
@testable import Postgres

/// `sslmode`, `sslrootcert`, the pool size and the statement cache: parsed strictly from the URL,
/// handed to libpq unchanged. (Reading them from the environment is the app's: `ConfigurationTests`.)
final class PostgresConfigurationTests: XCTestCase {
    private func libpqValue(_ keyword: String, of configuration: PostgresConfiguration) -> String? {
        configuration.libpqParameters.first { $0.0 == keyword }?.1
    }

    func testEverySSLModeOfLibpqPassesThroughUnchanged() throws {
        for mode in ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] {
            let configuration = try PostgresConfiguration(url: "postgres://u@h/d?sslmode=\(mode)")
            XCTAssertEqual(configuration.tls.rawValue, mode)
            XCTAssertEqual(libpqValue("sslmode", of: configuration), mode)
        }
        XCTAssertEqual(libpqValue("sslmode", of: try PostgresConfiguration(url: "postgres://u@h/d")), "prefer", "libpq's default")
    }

    func testUnknownSSLModesAreRejectedNamingTheChoices() {
        for mode in ["verify_full", "VERIFY-FULL", "on", "", "required"] {
            XCTAssertThrowsError(try PostgresConfiguration(url: "postgres://u@h/d?sslmode=\(mode)"), mode) { error in
                XCTAssertTrue("\(error)".contains("invalid sslmode '\(mode)'"), "\(error)")
                XCTAssertTrue("\(error)".contains("disable, allow, prefer, require, verify-ca, verify-full"), "\(error)")
            }
        }
    }

    func testRootCertificateFromTheURL() throws {
        let url = try PostgresConfiguration(url: "postgres://u@h/d?sslmode=verify-full&sslrootcert=/etc/ssl/ca%20file.crt")
        XCTAssertEqual(url.tlsRootCertificate, "/etc/ssl/ca file.crt")
        XCTAssertEqual(libpqValue("sslrootcert", of: url), "/etc/ssl/ca file.crt")
        XCTAssertNil(libpqValue("sslrootcert", of: try PostgresConfiguration(url: "postgres://u@h/d")))
    }

    func testStatementCacheFromTheURLOrTheCallersDefault() throws {
        XCTAssertTrue(try PostgresConfiguration(url: "postgres://u@h/d").statementCache)
        XCTAssertFalse(try PostgresConfiguration(url: "postgres://u@h/d?statement_cache=off").statementCache)
        XCTAssertFalse(try PostgresConfiguration(url: "postgres://u@h/d", statementCache: false).statementCache)
        let urlWins = try PostgresConfiguration(url: "postgres://u@h/d?statement_cache=on", statementCache: false)
        XCTAssertTrue(urlWins.statementCache, "the URL is the more specific")
        XCTAssertThrowsError(try PostgresConfiguration(url: "postgres://u@h/d?statement_cache=maybe")) { error in
            XCTAssertTrue("\(error)".contains("statement_cache"), "\(error)")
        }
    }

    func testPoolSizeAndUnknownParametersAreCheckedNotIgnored() throws {
        XCTAssertEqual(try PostgresConfiguration(url: "postgres://u@h/d?pool_size=3").poolSize, 3)
        for bad in ["pool_size=0", "pool_size=many", "sslmod=disable", "application_name=x"] {
            XCTAssertThrowsError(try PostgresConfiguration(url: "postgres://u:hunter2@h/d?\(bad)"), bad) { error in
                XCTAssertTrue("\(error)".contains(String(bad.prefix { $0 != "=" })), "\(error)")
                XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
            }
        }
    }

    /// Off, statements are unnamed: the server holds no prepared statement for the session,
    /// which is what keeps them correct behind a transaction-mode pooler.
    func testWithoutTheCacheNoStatementIsPreparedAndQueriesStillBind() async throws {
        for cache in [true, false] {
            var configuration = try testConfiguration()
            configuration.statementCache = cache
            configuration.poolSize = 1
            let db = PostgresClient(configuration: configuration, logger: Logger(label: "t"))
            let id = UUID()
            let echoed = try await db.query("SELECT \(id) AS id, \("it's") AS text, \(Int32(7)) + 1 AS n")
            XCTAssertEqual(try echoed[0].decode(column: "id", as: UUID.self), id)
            XCTAssertEqual(try echoed[0].decode(column: "text", as: String.self), "it's")
            XCTAssertEqual(try echoed[0].decode(column: "n", as: Int.self), 8)
            let prepared = try await db.query("SELECT count(*)::int AS n FROM pg_prepared_statements")[0].decode(column: "n", as: Int.self)
            XCTAssertEqual(prepared > 0, cache, "statement cache \(cache): \(prepared) prepared")
            await db.shutdown()
        }
    }

    /// `verify-full` against a server without TLS must fail, not quietly connect in the clear.
    func testVerifyFullIsNotWeakenedToPrefer() async throws {
        var configuration = try testConfiguration()
        guard configuration.tls == .disable else { throw XCTSkip("the test server is reached with sslmode=\(configuration.tls)") }
        configuration.tls = .verifyFull
        configuration.connectTimeout = .seconds(2)
        let logger = Logger.quiet("t")
        let db = PostgresClient(configuration: configuration, logger: logger)
        do {
            _ = try await db.query("SELECT 1 AS ok")
            XCTFail("connected without TLS under verify-full")
        } catch {
            XCTAssertEqual((error as? PostgresError)?.kind, .connectionFailed, "\(error)")
        }
        await db.shutdown()
    }
}
