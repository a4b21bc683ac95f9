import AppTesting
import Crypt
import Foundation
import JOSE
import Postgres
import XCTest
@testable import App

/// Runs `body` against a fresh app with `signing_keys` empty before and after: the table is
/// kept between tests (`TestDatabase.keptTables`), so a test that rotates or prunes leaves the
/// next one what it found, keys made again on first use.
func withEmptySigningKeys(settings: [String: String] = [:], _ body: (TestApp) async throws -> Void) async throws {
    try await withTestApp(settings: settings) { app in
        try await app.til.db.execute("DELETE FROM signing_keys")
        do {
            try await body(app)
        } catch {
            _ = try? await app.til.db.execute("DELETE FROM signing_keys")
            throw error
        }
        try await app.til.db.execute("DELETE FROM signing_keys")
    }
}

extension TestApp {
    /// The kids stored, by algorithm, oldest activation first.
    func storedKids(_ algorithm: JWSAlgorithm? = nil) async throws -> [String] {
        try await til.signingKeys.store.rows().filter { algorithm == nil || $0.algorithm == algorithm }.map(\.kid)
    }

    /// Moves `kid`'s activation to now, as if the rotation's wait had passed.
    func activateNow(_ kid: String) async throws {
        try await til.db.execute("UPDATE signing_keys SET activates_at = clock_timestamp() WHERE kid = \(kid)")
    }
}

/// The kid in a compact JWS's header.
func kid(of compact: String) throws -> String {
    let header = try XCTUnwrap(Base64URL.decode(String(compact.split(separator: ".")[0])))
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
    return try XCTUnwrap(object["kid"] as? String)
}

/// Claims of id_token size for the tests' signatures.
struct TestClaims: Codable, Equatable {
    var iss = "https://til.example"
    var sub = "5f0c1c52-9c1d-4b0a-a0a4-2f7f0a1e6c3b"
    var aud = "til-test-client"
    var exp = 1_900_000_000
    var iat = 1_899_996_400
    var nonce = "n-0S6_WzA2Mj"
}
