import AppTesting
import Foundation
import XCTest
@testable import App

/// `WEBAUTHN_RP_ID` and `WEBAUTHN_ORIGINS`: their defaults from the issuer (localhost for an
/// IP address, which WebAuthn refuses as an RP ID) and what stops the server at start.
final class PasskeyConfigurationTests: XCTestCase {
    private func settings(_ environment: [String: String]) throws -> WebAuthnSettings {
        try WebAuthnSettings(reader: ConfigReader(environment: environment))
    }

    func testDefaultsFollowTheIssuerWithLocalhostForAnIPAddress() throws {
        let defaults = WebAuthnSettings()
        let cases: [(String, String, String)] = [
            ("http://127.0.0.1:8080", "localhost", "http://localhost:8080"),
            ("http://[::1]:9000", "localhost", "http://localhost:9000"),
            ("http://localhost:8080", "localhost", "http://localhost:8080"),
            ("https://til.example", "til.example", "https://til.example"),
            ("https://auth.til.example:8443/til", "auth.til.example", "https://auth.til.example:8443"),
        ]
        for (issuer, id, origin) in cases {
            let party = defaults.relyingParty(for: try Issuer(parsing: issuer))
            XCTAssertEqual(party, PasskeyRelyingParty(id: id, origins: [origin]), issuer)
            XCTAssertNoThrow(try defaults.check(against: try Issuer(parsing: issuer)))
        }
        let served = ServedIssuer(configured: nil, host: "127.0.0.1", port: 0, tls: false)
        let party = ServedRelyingParty(settings: defaults, issuer: served)
        served.bind(port: 41234)
        XCTAssertEqual(party.current.origins, ["http://localhost:41234"], "the bound port, once known")
    }

    func testConfiguredValuesAreCheckedAgainstEachOther() throws {
        let configured = try settings(["WEBAUTHN_RP_ID": "Til.Example", "WEBAUTHN_ORIGINS": "https://til.example, https://login.til.example:8443"])
        XCTAssertEqual(configured.relyingParty(for: try Issuer(parsing: "https://api.other.example")),
                       PasskeyRelyingParty(id: "til.example", origins: ["https://til.example", "https://login.til.example:8443"]))
        let refusals: [([String: String], String)] = [
            (["WEBAUTHN_RP_ID": "127.0.0.1"], "WebAuthn refuses IP addresses as RP IDs"),
            (["WEBAUTHN_RP_ID": "::1"], "WebAuthn refuses IP addresses as RP IDs"),
            (["WEBAUTHN_RP_ID": "[::1]"], "WebAuthn refuses IP addresses as RP IDs"),
            (["WEBAUTHN_RP_ID": "til.example/x"], "WEBAUTHN_RP_ID must be a domain name, not 'til.example/x': a domain name of letters"),
            (["WEBAUTHN_RP_ID": "til.example", "WEBAUTHN_ORIGINS": "https://other.example"], "'https://other.example' is neither"),
            (["WEBAUTHN_RP_ID": "til.example", "WEBAUTHN_ORIGINS": "https://eviltil.example"], "'https://eviltil.example' is neither"),
            (["WEBAUTHN_ORIGINS": "http://til.example"], "must use https"),
            (["WEBAUTHN_ORIGINS": "https://til.example/login"], "without path"),
            (["WEBAUTHN_ORIGINS": "https://127.0.0.1"], "a domain name"),
            (["WEBAUTHN_ORIGINS": " , "], "at least one origin"),
        ]
        for (environment, fragment) in refusals {
            XCTAssertThrowsError(try settings(environment), "\(environment)") { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(environment): \(error)")
            }
        }
        let misfit = try settings(["WEBAUTHN_RP_ID": "til.example"])
        XCTAssertThrowsError(try misfit.check(against: try Issuer(parsing: "https://other.example"))) { error in
            XCTAssertTrue("\(error)".contains("must be the host of the issuer's origin https://other.example"), "\(error)")
        }
        XCTAssertNoThrow(try misfit.check(against: try Issuer(parsing: "https://login.til.example")))
    }

    /// An IP address as RP ID, or an RP ID the issuer's origin cannot use, stops `serve` before
    /// it touches the database: exit 78, one line saying why.
    func testServeStopsAtStartOnAnRPIDItCannotUse() async throws {
        let environment = [
            "PATH": "/usr/bin:/bin", "ENVIRONMENT": "development", "DATABASE_URL": "postgres://til@127.0.0.1:1/til",
            "SECRET_KEY": ServerProcess.testingSecretKey,
        ]
        let ip = try await TILServerRun.run(
            ["serve", "--port", "0"], environment: environment.merging(["WEBAUTHN_RP_ID": "127.0.0.1"]) { $1 }, timeLimit: .seconds(20))
        ip.assertFailure(78, mentioning: ["WEBAUTHN_RP_ID must be a domain name, not '127.0.0.1': WebAuthn refuses IP addresses as RP IDs."])
        let misfit = try await TILServerRun.run(
            ["serve", "--port", "8080"], environment: environment.merging(["WEBAUTHN_RP_ID": "til.example"]) { $1 }, timeLimit: .seconds(20))
        misfit.assertFailure(78, mentioning: ["WEBAUTHN_RP_ID 'til.example' must be the host of the issuer's origin http://localhost:8080"])
    }
}
