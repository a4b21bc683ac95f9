import Web
import XCTest
@testable import App

/// `ISSUER` (issue 18): the public base URL every OAuth answer names. Strict in form, required in
/// production off loopback, https there unless loopback, never derived from `0.0.0.0`.
final class IssuerTests: XCTestCase {
    private let base = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til", "ADMIN_PASSWORD": "an-admin-password"]

    private func configuration(_ variables: [String: String]) throws -> AppConfiguration {
        try AppConfiguration(reader: ConfigReader(environment: base.merging(variables) { $1 }))
    }

    func testAnIssuerIsAnAbsoluteHTTPURLWithoutSlashQueryFragmentOrUserInformation() throws {
        for accepted in ["https://til.example", "https://til.example:8443", "https://example.com/til", "http://127.0.0.1:8080", "http://[::1]:80"] {
            XCTAssertEqual(try Issuer(parsing: accepted).url, accepted)
        }
        let refused = [
            "til.example", "https://til.example/", "https://til.example?a=b", "https://til.example#top", "https://user@til.example",
            "https://", "https://:443", "ftp://til.example", "HTTPS://til.example", "https://til example", "https://tíl.example",
            "https://til.example\u{0}", "https://*.example", String(repeating: "a", count: 600),
        ]
        for text in refused {
            XCTAssertThrowsError(try Issuer(parsing: text), text)
        }
    }

    func testTheLoopbackHostIsRecognisedWhateverItsSpelling() throws {
        XCTAssertTrue(try Issuer(parsing: "http://LOCALHOST:1").isLoopback)
        XCTAssertTrue(try Issuer(parsing: "http://127.0.0.2").isLoopback)
        XCTAssertTrue(try Issuer(parsing: "http://[::1]:8080").isLoopback)
        XCTAssertFalse(try Issuer(parsing: "http://127.0.0.1.evil.example").isLoopback)
        XCTAssertFalse(try Issuer(parsing: "http://localhost.evil.example").isLoopback)
    }

    func testProductionRefusesPlainHTTPUnlessTheIssuerIsLoopback() throws {
        XCTAssertThrowsError(try configuration(["ENVIRONMENT": "production", "ISSUER": "http://til.example"])) { error in
            XCTAssertTrue("\(error)".contains("ISSUER must be an https URL in production"), "\(error)")
        }
        XCTAssertEqual(try configuration(["ENVIRONMENT": "production", "ISSUER": "http://127.0.0.1:8080"]).issuer?.url, "http://127.0.0.1:8080")
        XCTAssertEqual(try configuration(["ENVIRONMENT": "production", "ISSUER": "https://til.example"]).issuer?.url, "https://til.example")
        XCTAssertEqual(try configuration(["ENVIRONMENT": "development", "ISSUER": "http://til.lan"]).issuer?.url, "http://til.lan")
    }

    func testProductionNeedsAnIssuerOffLoopbackOnly() throws {
        let production = try configuration(["ENVIRONMENT": "production"])
        XCTAssertThrowsError(try production.checkIssuer(servingOn: "0.0.0.0")) { error in
            XCTAssertTrue("\(error)".hasPrefix("ISSUER must be set in production when serving on 0.0.0.0"), "\(error)")
        }
        XCTAssertNoThrow(try production.checkIssuer(servingOn: "127.0.0.1"))
        XCTAssertNoThrow(try production.checkIssuer(servingOn: "::1"))
        XCTAssertNoThrow(try configuration(["ENVIRONMENT": "production", "ISSUER": "https://til.example"]).checkIssuer(servingOn: "0.0.0.0"))
        XCTAssertNoThrow(try configuration(["ENVIRONMENT": "development"]).checkIssuer(servingOn: "0.0.0.0"))
    }

    func testTheServedIssuerIsTheLoopbackAddressWithTheBoundPortAndNeverTheWildcard() {
        let derived = ServedIssuer(configured: nil, host: "127.0.0.1", port: 0, tls: false)
        derived.bind(port: 41234)
        XCTAssertEqual(derived.current.url, "http://127.0.0.1:41234")
        XCTAssertEqual(ServedIssuer(configured: nil, host: "::1", port: 8443, tls: true).current.url, "https://[::1]:8443")
        XCTAssertEqual(ServedIssuer(configured: nil, host: "0.0.0.0", port: 8080, tls: false).current.url, "http://localhost:8080")
        let configured = ServedIssuer(configured: try? Issuer(parsing: "https://til.example"), host: "127.0.0.1", port: 0, tls: false)
        configured.bind(port: 9)
        XCTAssertEqual(configured.current.url, "https://til.example")
    }

    /// `serve` stops before touching the database (the URL points nowhere) with exit 78.
    func testServeRefusesToStartInProductionOffLoopbackWithoutAnIssuer() async throws {
        let environment = [
            "PATH": "/usr/bin:/bin", "ENVIRONMENT": "production", "ADMIN_PASSWORD": "an-admin-password",
            "DATABASE_URL": "postgres://til@127.0.0.1:1/til",
        ]
        let run = try await TILServerRun.run(["serve", "--hostname", "0.0.0.0", "--port", "0"], environment: environment, timeLimit: .seconds(20))
        run.assertFailure(78, mentioning: ["til-server: ISSUER must be set in production when serving on 0.0.0.0"])
        let flag = try await TILServerRun.run(
            ["serve", "--hostname", "0.0.0.0", "--port", "0", "--issuer", "http://til.example"], environment: environment,
            timeLimit: .seconds(20))
        flag.assertFailure(78, mentioning: ["--issuer (ISSUER) must be an https URL in production"])
    }
}
