import AppTesting
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `DATABASE_READ_URL`: anonymous reads go to a replica, everything else to the primary, and a
/// replica that is down costs one failed attempt, not one per request. The test database
/// plays the replica (a real standby is exercised by `scripts/cluster-test.sh`).
final class ReadReplicaTests: XCTestCase {
    func testOnlyAnonymousReadsGoToTheReplica() async throws {
        try await withTestApp(settings: ["DATABASE_READ_URL": try testDatabaseURL()]) { app in
            let replicas = try XCTUnwrap(app.til.replicas)
            let token = try await app.client.session("admin")
            let created = try await app.client.send(.post, "/api/acronyms", json: ["short": "TIL", "long": "Today"], auth: .bearer(token.value))
            XCTAssertEqual(created.status.code, 200, created.bodyString)
            let acronym = try created.decode(Acronym.self)
            let afterWrites = replicas.counts
            XCTAssertEqual(afterWrites, ReadReplicas.Counts(), "login, token check and create: primary only")

            let anonymous = try await app.client.send(.get, "/api/acronyms/\(acronym.id)")
            XCTAssertEqual(anonymous.status.code, 200)
            XCTAssertEqual(try anonymous.decode(Acronym.self).short, "TIL")
            let afterAnonymous = replicas.counts
            XCTAssertEqual(afterAnonymous.servedByReplica, 1)

            for path in ["/api/acronyms/\(acronym.id)", "/api/users/me", "/api/users/me/sessions"] {
                let signedIn = try await app.client.send(.get, path, auth: .bearer(token.value))
                XCTAssertEqual(signedIn.status.code, 200, "\(path): \(signedIn.bodyString)")
            }
            let afterSignedIn = replicas.counts
            XCTAssertEqual(afterSignedIn, afterAnonymous, "a client with a token reads from the primary")
            let ready = try await app.client.send(.get, "/ready")
            XCTAssertEqual(ready.status.code, 200)
            let afterReady = replicas.counts
            XCTAssertEqual(afterReady, afterAnonymous, "/ready checks the primary")
        }
    }

    func testAClosedReplicaFallsBackToThePrimaryAndIsNotRetriedPerRequest() async throws {
        let closed = "postgres://til:til@127.0.0.1:\(try ServerProcess.freePort())/til_test?sslmode=disable"
        try await withTestApp(settings: ["DATABASE_READ_URL": closed]) { app in
            let replicas = try XCTUnwrap(app.til.replicas)
            _ = try await Acronym.create(on: app)
            let started = ContinuousClock.now
            for _ in 1...20 {
                let response = try await app.client.send(.get, "/api/acronyms")
                XCTAssertEqual(response.status.code, 200, response.bodyString)
                XCTAssertEqual(try response.decode([Acronym].self).count, 1)
            }
            let elapsed = ContinuousClock.now - started
            XCTAssertEqual(replicas.counts, ReadReplicas.Counts(servedByReplica: 0, fellBackToPrimary: 20, replicaFailures: 1))
            XCTAssertLessThan(elapsed, .seconds(3), "20 reads with the replica down")
        }
    }

    /// A replica that could not answer in time is skipped, then taken back once the probe
    /// reaches it again.
    func testASetAsideReplicaComesBackAfterTheProbe() async throws {
        var configuration = try PostgresConfiguration(url: try testDatabaseURL())
        configuration.poolSize = 1
        let logger = Logger.quiet("replica-test")
        let primary = PostgresClient(configuration: configuration, logger: logger)
        let replicas = ReadReplicas(configurations: [configuration], retryInterval: .milliseconds(200), logger: logger)
        let busy = Task {
            try await replicas.clients[0].withTransaction { tx in
                try await tx.execute("SELECT pg_sleep(1.5)")
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let during = try await replicas.query("SELECT 1 AS n", fallback: primary)
        XCTAssertEqual(try during[0].decode(column: "n", as: Int.self), 1)
        XCTAssertEqual(replicas.counts, ReadReplicas.Counts(servedByReplica: 0, fellBackToPrimary: 1, replicaFailures: 1))
        _ = try await busy.value
        let deadline = ContinuousClock.now + .seconds(5)
        while replicas.counts.servedByReplica == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            _ = try await replicas.query("SELECT 1 AS n", fallback: primary)
        }
        XCTAssertEqual(replicas.counts.servedByReplica, 1, "back in service after the probe")
        await replicas.shutdown()
        await primary.shutdown()
    }

    func testReadURLsAreParsedLikeTheDatabaseURL() throws {
        let list = try PostgresConfiguration.readReplicas(reader: ConfigReader(environment: [
            "DATABASE_READ_URL": "postgres://r@a:5433/til?sslmode=require, postgres://r@b:5434/til,",
            "DATABASE_STATEMENT_CACHE": "off",
        ]))
        XCTAssertEqual(list.map(\.host), ["a", "b"])
        XCTAssertEqual(list.map(\.port), [5433, 5434])
        XCTAssertEqual(list.map(\.tls), [.require, .prefer])
        XCTAssertEqual(list.map(\.statementCache), [false, false])
        XCTAssertEqual(try PostgresConfiguration.readReplicas(reader: ConfigReader(environment: [:])).count, 0)
        let bad = ConfigReader(environment: ["DATABASE_READ_URL": "postgres://a/til,http://b"])
        XCTAssertThrowsError(try PostgresConfiguration.readReplicas(reader: bad)) { error in
            XCTAssertTrue("\(error)".hasPrefix("DATABASE_READ_URL must be"), "\(error)")
            XCTAssertTrue("\(error)".contains("entry 2: not a database URL"), "\(error)")
        }
    }
}
