import Foundation
import XCTest
import Yams

/// There is no Docker engine where TIL is built and tested, so the deployment files are checked
/// the way `docker compose config` would read them: parsed as YAML, and held against what
/// `make run` does and what the project is built with.
final class DeploymentFilesTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ name: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8)
    }

    private func compose() throws -> [String: Any] {
        try XCTUnwrap(try Yams.load(yaml: try text("docker-compose.yml")) as? [String: Any])
    }

    func testComposeRunsProductionAndRefusesToStartWithoutAnAdminPassword() throws {
        let services = try XCTUnwrap(try compose()["services"] as? [String: Any])
        let app = try XCTUnwrap(services["app"] as? [String: Any])
        let environment = try XCTUnwrap(app["environment"] as? [String: Any])
        XCTAssertEqual(environment["ENVIRONMENT"] as? String, "${ENVIRONMENT:-production}")
        let admin = try XCTUnwrap(environment["ADMIN_PASSWORD"] as? String)
        XCTAssertTrue(admin.hasPrefix("${ADMIN_PASSWORD:?"), "compose must fail when ADMIN_PASSWORD is unset: \(admin)")
        let secret = try XCTUnwrap(environment["SECRET_KEY"] as? String)
        XCTAssertTrue(secret.hasPrefix("${SECRET_KEY:?"), "compose must fail when SECRET_KEY is unset: \(secret)")
        let database = try XCTUnwrap(environment["DATABASE_URL"] as? String)
        XCTAssertTrue(database.hasPrefix("postgres://") && database.contains("@db:5432/"), database)
        // It binds 0.0.0.0 in production, so the OAuth issuer must be given (issue 18).
        XCTAssertEqual(environment["ISSUER"] as? String, "${ISSUER:-http://127.0.0.1:8080}")
        let dependsOn = try XCTUnwrap(app["depends_on"] as? [String: Any])
        XCTAssertEqual((dependsOn["db"] as? [String: Any])?["condition"] as? String, "service_healthy")
        let db = try XCTUnwrap(services["db"] as? [String: Any])
        XCTAssertNotNil(db["healthcheck"], "the app waits for a healthy database")
        for service in [app, db] {
            for port in service["ports"] as? [String] ?? [] {
                XCTAssertTrue(port.hasPrefix("127.0.0.1:"), "published on loopback only: \(port)")
            }
        }
    }

    /// Production serves `/metrics` only on `METRICS_PORT`: compose sets it, and publishes it
    /// on the host's loopback like the API (issue 17).
    func testComposeServesMetricsOnTheirOwnPortPublishedOnLoopback() throws {
        let services = try XCTUnwrap(try compose()["services"] as? [String: Any])
        let app = try XCTUnwrap(services["app"] as? [String: Any])
        let environment = try XCTUnwrap(app["environment"] as? [String: Any])
        let port = try XCTUnwrap(environment["METRICS_PORT"] as? String, "compose sets METRICS_PORT (as a string)")
        XCTAssertEqual(environment["METRICS_HOST"] as? String, "0.0.0.0", "reachable from outside the container")
        let published = app["ports"] as? [String] ?? []
        XCTAssertTrue(published.contains("127.0.0.1:\(port):\(port)"), "\(published)")
    }

    /// The container runs the same subcommand and flags as `make run`, and reads the same
    /// variables.
    func testComposeServesWithTheFlagsOfMakeRun() throws {
        let services = try XCTUnwrap(try compose()["services"] as? [String: Any])
        let app = try XCTUnwrap(services["app"] as? [String: Any])
        let command = try XCTUnwrap(app["command"] as? [String])
        let makefile = try text("Makefile")
        let runLine = try XCTUnwrap(makefile.split(separator: "\n").first { $0.contains(".build/release/til-server serve") })
        let makeFlags = runLine.split(separator: " ").filter { $0.hasPrefix("--") }.map(String.init)
        XCTAssertEqual(command.first, "serve")
        XCTAssertEqual(command.filter { $0.hasPrefix("--") }, makeFlags)
        let environment = try XCTUnwrap(app["environment"] as? [String: Any])
        for variable in ["DATABASE_URL", "ENVIRONMENT"] {
            XCTAssertTrue(runLine.contains("\(variable)="), "make run sets \(variable)")
            XCTAssertNotNil(environment[variable], "compose sets \(variable)")
        }
    }

    /// The image builds with the Swift the project is developed with, links the Swift runtime
    /// statically, and runs as an unprivileged user.
    func testDockerfileBuildsWithTheProjectsSwiftAndAStaticRuntime() throws {
        let dockerfile = try text("Dockerfile")
        let swiftImage = try XCTUnwrap(dockerfile.split(separator: "\n").first { $0.hasPrefix("FROM swift:") })
        #if compiler(>=6.3) && !compiler(>=6.4)
        XCTAssertTrue(swiftImage.hasPrefix("FROM swift:6.3"), "\(swiftImage) — the tests run on Swift 6.3")
        #endif
        XCTAssertTrue(dockerfile.contains("--static-swift-stdlib"))
        XCTAssertFalse(dockerfile.contains("/usr/lib/swift/linux"), "no Swift runtime copied beside a static binary")
        XCTAssertTrue(dockerfile.contains("\nUSER til"))
    }

    /// The runtime stage installs the shared library behind each system-library target the
    /// server links (libpq, OpenSSL, libcrypt, libqrencode for the TOTP enrolment's QR code, and
    /// libcurl for SMTP).
    func testTheRuntimeImageHasTheSystemLibrariesTheServerLinks() throws {
        let dockerfile = try text("Dockerfile")
        let runtime = try XCTUnwrap(dockerfile.components(separatedBy: "\nFROM ").last)
        for package in ["libpq5", "libssl3", "libcrypt1", "libqrencode4", "libcurl4"] {
            XCTAssertTrue(runtime.contains(" \(package) "), "the runtime stage installs \(package)")
        }
    }
}
