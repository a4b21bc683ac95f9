import AppTesting
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Signing keys shared by several `til-server` processes over one database (issue 19): racing
/// first starts make one key per algorithm, and a rotation by the command leaves every token,
/// signed before or after it, verifiable against the set another process publishes.
final class SigningKeysAcrossProcessesTests: XCTestCase {
    func testProcessesStartingTogetherOnNoKeysShareOneKeyPerAlgorithm() async throws {
        try await withEmptySigningKeys { app in
            let environment = try ServerProcess.testEnvironment(["BCRYPT_COST": "4"])
            let servers = try (0..<3).map { _ in try ServerProcess(environment: environment) }
            for server in servers { try await server.waitUntilHealthy() }
            var sets: [String] = []
            for server in servers {
                let jwks = try await server.client.send(.get, "/oauth/jwks")
                XCTAssertEqual(jwks.status.code, 200, jwks.bodyString)
                sets.append(try JSONDecoder().decode(JWKSet.self, from: Data(jwks.body)).keys.compactMap(\.kid).sorted().joined(separator: ","))
            }
            let stored = try await app.storedKids()
            XCTAssertEqual(stored.count, 2, "one RSA and one P-256 key, not one per process")
            XCTAssertEqual(Set(sets).count, 1, "every process publishes the same keys: \(sets)")
            await servers.stopAll(showingOutputIf: hasFailed)
        }
    }

    func testTokensSignedBeforeAndAfterARotationVerifyAgainstAnotherProcessesSet() async throws {
        let settings = ["JWKS_MAX_AGE": "1"]
        try await withEmptySigningKeys(settings: settings) { app in
            let ring = app.til.signingKeys
            let before = try await ring.sign(TestClaims(), algorithm: .rs256)
            let other = try ServerProcess(environment: try ServerProcess.testEnvironment(settings.merging(["BCRYPT_COST": "4"]) { $1 }))
            try await other.waitUntilHealthy()
            let published = try await self.publishedSet(of: other)
            XCTAssertEqual(try JSONDecoder().decode(TestClaims.self, from: try JWS.verify(before, keys: published, allowed: [.rs256])), TestClaims())

            let rotate = try await TILServerRun.run(
                ["keys", "rotate", "--algorithm", "RS256", "--activate"], environment: try TILServerRun.testEnvironment(settings))
            XCTAssertEqual(rotate.status, 0, rotate.stderr)
            try await ring.reload()
            let after = try await ring.sign(TestClaims(), algorithm: .rs256)
            XCTAssertNotEqual(try kid(of: after), try kid(of: before), "signed with the new key")

            // The other process reloads within JWKS_MAX_AGE (1 s): wait for its set to name the new kid.
            var set = try await publishedSet(of: other)
            let deadline = ContinuousClock.now + .seconds(15)
            while !set.keys.contains(where: { $0.kid == (try? kid(of: after)) }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                set = try await publishedSet(of: other)
            }
            for token in [before, after] {
                let payload = try JWS.verify(token, keys: set, allowed: [.rs256])
                XCTAssertEqual(try JSONDecoder().decode(TestClaims.self, from: payload), TestClaims(), "verifies against the other process's set")
            }
            await [other].stopAll(showingOutputIf: hasFailed)
        }
    }

    private func publishedSet(of server: ServerProcess) async throws -> JWKSet {
        let response = try await server.client.send(.get, "/oauth/jwks")
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try JSONDecoder().decode(JWKSet.self, from: Data(response.body))
    }
}
