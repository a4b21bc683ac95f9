import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

final class HealthAndAvailabilityTests: XCTestCase {
    func testHealthAndReady() async throws {
        try await withTestApp { app in
            let health = try await app.sendRequest(to: "/health", method: .get)
            XCTAssertEqual(health.status.code, 200)
            XCTAssertEqual(health.bodyString, #"{"status":"ok"}"#)
            let ready = try await app.sendRequest(to: "/ready", method: .get)
            XCTAssertEqual(ready.status.code, 200)

            // The liveness probe needs no task: its handler and the app's middleware never suspend.
            let responder = app.app.makeResponder()
            func answersNow(_ path: String) -> Bool {
                let head = HTTPRequestHead(method: .get, target: path, version: .http1_1, headers: ["Host": "x"])
                if case .now = responder.answer(HTTPRequest(head: head)) { return true }
                return false
            }
            XCTAssertTrue(answersNow("/health"))
            XCTAssertFalse(answersNow("/ready"), "/ready asks the database")
        }
    }

    /// With the database unreachable, data routes answer 503 quickly, never hang, and /health
    /// still answers.
    func testDatabaseDownIs503() async throws {
        var unreachable = try PostgresConfiguration(url: "postgres://til:til@127.0.0.1:1/til")
        unreachable.connectTimeout = .seconds(1)
        try await TestApp.run(database: unreachable) { down in
            let started = ContinuousClock.now
            let users = try await down.sendRequest(to: "/api/users", method: .get)
            let ready = try await down.sendRequest(to: "/ready", method: .get)
            let health = try await down.sendRequest(to: "/health", method: .get)
            XCTAssertEqual(users.status.code, 503)
            XCTAssertEqual(ready.status.code, 503)
            XCTAssertEqual(health.status.code, 200)
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
            XCTAssertFalse(users.bodyString.contains("127.0.0.1:1"), "no internals in the response")
        }
    }

    func testProductionRefusesToStartWithoutAdminPassword() {
        func load(_ variables: [String: String]) throws -> AppConfiguration {
            try AppConfiguration(reader: ConfigReader(environment: variables))
        }
        XCTAssertThrowsError(try load(["DATABASE_URL": "postgres://a@b/c"])) { error in
            XCTAssertTrue("\(error)".contains("ADMIN_PASSWORD"))
        }
        XCTAssertNoThrow(try load(["DATABASE_URL": "postgres://a@b/c", "ADMIN_PASSWORD": "long-enough-secret"]))
        XCTAssertEqual(try load(["ENVIRONMENT": "development"]).adminPassword, "password")
        XCTAssertThrowsError(try load(["ENVIRONMENT": "development", "BCRYPT_COST": "99"]))
    }
}
