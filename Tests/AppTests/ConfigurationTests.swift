import Web
import XCTest
@testable import App

/// Start-up configuration, without a database: environment detection, the admin password
/// rules, and the messages an operator gets for a bad value.
final class ConfigurationTests: XCTestCase {
    private let database = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til"]

    private func load(_ environment: Environment, _ variables: [String: String] = [:]) throws -> AppConfiguration {
        try AppConfiguration.load(environment: environment, from: database.merging(variables) { _, new in new })
    }

    /// The operator's message for a configuration that must not start.
    private func message(_ environment: Environment, _ variables: [String: String] = [:]) -> String? {
        do {
            _ = try load(environment, variables)
            return nil
        } catch let error as ConfigurationError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    func testEnvironmentDefaultsToProduction() {
        XCTAssertEqual(Environment.detect([:]), .production)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": ""]), .production)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": "  "]), .production)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": "development"]), .development)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": "Dev"]), .development)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": "test"]), .testing)
        XCTAssertEqual(Environment.detect(["ENVIRONMENT": "PROD"]), .production)
        XCTAssertEqual(Environment.named("staging").name, "staging")
    }

    func testProductionRequiresAdminPassword() throws {
        XCTAssertEqual(
            message(.detect([:])), "ADMIN_PASSWORD must be set in production (the admin account's password; 8 to 72 bytes).")
        XCTAssertNotNil(message(.production, ["ADMIN_PASSWORD": ""]))
        let configuration = try load(.production, ["ADMIN_PASSWORD": "correct horse"])
        XCTAssertEqual(configuration.adminPassword, "correct horse")
        XCTAssertFalse(configuration.usesBuiltInAdminPassword)
    }

    func testDevelopmentAndTestingFallBackToTheBuiltInPassword() throws {
        for environment in [Environment.development, .testing] {
            let configuration = try load(environment)
            XCTAssertEqual(configuration.adminPassword, "password")
            XCTAssertTrue(configuration.usesBuiltInAdminPassword)
        }
    }

    func testBuiltInPasswordIsServedOnlyOnLoopback() throws {
        let development = try load(.development)
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            XCTAssertNoThrow(try development.checkAdminPassword(servingOn: host), host)
        }
        for host in ["0.0.0.0", "::", "192.168.1.10", "example.com", "127.0.0.1.example.com"] {
            XCTAssertThrowsError(try development.checkAdminPassword(servingOn: host), host) { error in
                XCTAssertEqual(
                    (error as? ConfigurationError)?.description,
                    "Refusing to serve on \(host) with the built-in admin password 'password': "
                        + "set ADMIN_PASSWORD (8 to 72 bytes), or serve on 127.0.0.1.")
            }
        }
        let chosen = try load(.development, ["ADMIN_PASSWORD": "correct horse"])
        XCTAssertNoThrow(try chosen.checkAdminPassword(servingOn: "0.0.0.0"))
    }

    func testBadValuesAreRejectedWithAClearMessage() {
        XCTAssertEqual(message(.production, ["ADMIN_PASSWORD": "short"]), "'ADMIN_PASSWORD' must be at least 8 bytes.")
        XCTAssertEqual(
            message(.production, ["ADMIN_PASSWORD": String(repeating: "é", count: 37)]),  // 74 bytes, 37 characters
            "'ADMIN_PASSWORD' must be at most 72 bytes.")
        XCTAssertEqual(message(.development, ["ADMIN_PASSWORD": "pass\u{0}word"]), "'ADMIN_PASSWORD' must not contain NUL.")
        XCTAssertEqual(
            message(.named("producton"), ["ADMIN_PASSWORD": "correct horse"]),
            "ENVIRONMENT must be development, testing or production, not 'producton'.")
        XCTAssertEqual(message(.testing, ["BCRYPT_COST": "3"]), "BCRYPT_COST must be a number from 4 to 31.")
        XCTAssertEqual(
            message(.testing, ["LOG_LEVEL": "loud"]),
            "LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical.")
    }

    func testPasswordRulesCountBytes() {
        XCTAssertEqual(PasswordRules.byteCount, 8...72)
        XCTAssertNoThrow(try PasswordRules.validate(String(repeating: "a", count: 72)))
        XCTAssertNoThrow(try PasswordRules.validate("ééééé"))  // 5 characters, 10 bytes
        XCTAssertThrowsError(try PasswordRules.validate("e\u{301}e\u{301}", field: "secret")) { error in
            XCTAssertEqual((error as? any AbortError)?.status, .badRequest)
            XCTAssertEqual((error as? any AbortError)?.reason, "'secret' must be at least 8 bytes.")
        }
    }
}
