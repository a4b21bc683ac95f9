import AppTesting
import Crypt
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The OpenID Connect signing keys (issue 19) in one process: made once at first use, sealed at
/// rest, rotated without surprising relying parties, pruned only when no token they signed
/// can be live, published at `jwks_uri`.
final class SigningKeysTests: XCTestCase {
    func testFirstUseMakesOneKeyPerAlgorithmSealedAtRest() async throws {
        try await withEmptySigningKeys { app in
            let published = try await app.til.signingKeys.publishedKeys()
            XCTAssertEqual(Set(published.keys.compactMap(\.alg)), ["RS256", "ES256"])
            let rows = try await app.til.db.query("SELECT kid, private_key_sealed FROM signing_keys")
            XCTAssertEqual(rows.count, 2)
            for row in rows {
                let kid = try row.decode(column: "kid", as: String.self)
                let column = try row.decode(column: "private_key_sealed", as: String.self)
                let sealed = try XCTUnwrap(Base64URL.decode(column))
                let rows = try await app.til.signingKeys.store.rows()
                let stored = try XCTUnwrap(rows.first { $0.kid == kid })
                let key = stored.algorithm
                let der = try app.til.signingKeys.store.open(stored).privateDER()
                XCTAssertEqual(sealed.first, 1, "AtRestCipher's version byte")
                XCTAssertFalse(sealed.containsRun(of: Array(der.prefix(48))), "\(key): the column holds no plain DER")
                XCTAssertFalse(column.contains(Base64URL.encode(Array(der.prefix(48)))))
                let opened = try AtRestCipher(secret: AppConfiguration.testingSecretKey, purpose: SigningKeyStore.purpose)
                    .open(sealed, binding: Array(kid.utf8))
                XCTAssertEqual(opened, der)
                XCTAssertThrowsError(
                    try AtRestCipher(secret: AppConfiguration.testingSecretKey, purpose: SigningKeyStore.purpose)
                        .open(sealed, binding: Array("another kid".utf8)), "bound to its row")
            }
            let again = try await app.til.signingKeys.reload()
            XCTAssertEqual(again.published, published, "a reload makes no new keys")
        }
    }

    func testConcurrentFirstStartsMakeTheKeysOnce() async throws {
        try await withEmptySigningKeys { app in
            let rings = (0..<6).map { _ in
                SigningKeyRing(store: SigningKeyStore(db: app.til.db, secret: AppConfiguration.testingSecretKey), maxAge: .seconds(300))
            }
            let sets = try await withThrowingTaskGroup(of: JWKSet.self) { group in
                for ring in rings { group.addTask { try await ring.prepare(); return try await ring.publishedKeys() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = try await app.storedKids()
            XCTAssertEqual(stored.count, 2, "one key per algorithm, however many started")
            XCTAssertEqual(Set(sets.map { $0.keys.compactMap(\.kid).sorted() }).count, 1, "every process publishes the same set")
        }
    }

    func testJWKSServesEveryPublicKeyWithCacheControl() async throws {
        try await withEmptySigningKeys(settings: ["JWKS_MAX_AGE": "120"]) { app in
            let response = try await app.client.send(.get, "/oauth/jwks")
            XCTAssertEqual(response.status.code, 200, response.bodyString)
            XCTAssertEqual(response.headers["Cache-Control"], "public, max-age=120")
            XCTAssertTrue(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
            let keys = try XCTUnwrap(try response.jsonObject()["keys"] as? [[String: Any]])
            XCTAssertEqual(keys.count, 2)
            for key in keys {
                let members = Set(key.keys)
                let expected: Set<String> = key["kty"] as? String == "RSA" ? ["kty", "use", "alg", "kid", "n", "e"] : ["kty", "use", "alg", "kid", "crv", "x", "y"]
                XCTAssertEqual(members, expected, "public members only: \(key)")
                XCTAssertEqual(key["use"] as? String, "sig")
            }
            let set = try JSONDecoder().decode(JWKSet.self, from: Data(response.body))
            for jwk in set.keys { XCTAssertEqual(jwk.kid, try jwk.thumbprint(), "kid = RFC 7638 thumbprint") }
        }
    }

    func testARotatedKeyIsPublishedAtOnceButSignsOnlyFromItsActivation() async throws {
        try await withEmptySigningKeys { app in
            let ring = app.til.signingKeys
            let before = try await ring.sign(TestClaims(), algorithm: .rs256)
            let added = try await app.til.signingKeyAdministration.rotate([.rs256], activate: false)
            let new = try XCTUnwrap(added.first)
            XCTAssertEqual(new.status, "next")
            XCTAssertEqual(
                new.activatesAt.timeIntervalSince(new.createdAt), 600, accuracy: 5, "twice JWKS_MAX_AGE: processes, then relying parties")
            try await ring.reload()
            let published = try await ring.publishedKeys()
            XCTAssertTrue(published.keys.contains { $0.kid == new.kid }, "published at once")
            let during = try await ring.sign(TestClaims(), algorithm: .rs256)
            XCTAssertEqual(try kid(of: during), try kid(of: before), "not signing before its activation")
            XCTAssertNotEqual(try kid(of: during), new.kid)

            try await app.activateNow(new.kid)
            try await ring.reload()
            let after = try await ring.sign(TestClaims(), algorithm: .rs256)
            XCTAssertEqual(try kid(of: after), new.kid)
            for token in [before, during, after] {
                let payload = try await ring.verify(token)
                XCTAssertEqual(try JSONDecoder().decode(TestClaims.self, from: payload), TestClaims())
            }
            let statuses = try await app.til.signingKeyAdministration.list().filter { $0.algorithm == .rs256 }.map(\.status)
            XCTAssertEqual(statuses, ["retired", "active"])
            let es256 = try await ring.sign(TestClaims(), algorithm: .es256)
            let storedES256 = try await app.storedKids(.es256)
            XCTAssertEqual(try kid(of: es256), storedES256.first, "the other algorithm is untouched")
        }
    }

    func testPruneKeepsAKeyWhoseTokensMayStillBeLive() async throws {
        try await withEmptySigningKeys(settings: ["TOKEN_TTL": "600", "JWKS_MAX_AGE": "60"]) { app in
            try await app.til.signingKeys.prepare()
            let first = try await app.storedKids(.es256)
            let old = try XCTUnwrap(first.first)
            let rotated = try await app.til.signingKeyAdministration.rotate([.es256], activate: true)
            let new = try XCTUnwrap(rotated.first).kid
            let prunedAtOnce = try await app.til.signingKeyAdministration.prune()
            XCTAssertEqual(prunedAtOnce, [], "retired just now: its tokens live on")
            let retention = app.til.signingKeyRetention
            XCTAssertEqual(retention, .seconds(660), "TOKEN_TTL + JWKS_MAX_AGE")
            let store = app.til.signingKeys.store
            let prunedWithin = try await store.prune(retention: retention, asOf: Date().addingTimeInterval(600))
            XCTAssertEqual(prunedWithin, [], "still within the retention")
            var purger = TokenPurger(db: app.til.db, loginFailureRetention: .seconds(3600), logger: app.app.logger)
            purger.signingKeyRetention = retention
            try await purger.purgeOnce(asOf: Date().addingTimeInterval(720))
            let remaining = try await app.storedKids(.es256)
            XCTAssertEqual(remaining, [new], "the purge job pruned the old key once past the retention")
            XCTAssertFalse(remaining.contains(old))
            let prunedLater = try await store.prune(retention: retention, asOf: Date().addingTimeInterval(86400 * 30))
            XCTAssertEqual(prunedLater, [], "an active key is never pruned, however old")
            let all = try await app.storedKids()
            XCTAssertEqual(all.count, 2)
        }
    }

    func testAWrongSecretKeyIsAClearStartUpError() async throws {
        try await withTestApp { app in
            _ = try await app.til.signingKeys.publishedKeys()  // sealed with the testing key
            var configuration = app.til.configuration
            configuration.secretKey = SecretKey(text: String(repeating: "ab", count: 32))
            let other = TIL(configuration: configuration, logger: .quiet("wrong-key"), sharedDatabase: app.til.db)
            do {
                try await other.prepareSigningKeys()
                XCTFail("opened keys sealed with another SECRET_KEY")
            } catch let error as ConfigurationError {
                XCTAssertTrue(error.description.contains("does not open with this SECRET_KEY"), error.description)
            }
            configuration.secretKey = nil
            let none = TIL(configuration: configuration, logger: .quiet("no-key"), sharedDatabase: app.til.db)
            do {
                try await none.prepareSigningKeys()
                XCTFail("opened keys without a SECRET_KEY")
            } catch let error as ConfigurationError {
                XCTAssertTrue(error.description.hasPrefix("SECRET_KEY is not set"), error.description)
            }
        }
    }

    func testVerifyRefusesWhatThePublishedKeysDidNotSign() async throws {
        try await withTestApp { app in
            let stranger = try SigningKey.generate(.es256)
            let forged = try stranger.sign(payload: try JSONEncoder().encode(TestClaims()))
            do {
                _ = try await app.til.signingKeys.verify(forged)
                XCTFail("verified a token of a key never published")
            } catch let error as JOSEError {
                XCTAssertEqual(error, .unknownKey(stranger.kid))
            }
            let published = try await app.til.signingKeys.sign(TestClaims(), algorithm: .es256)
            var parts = published.split(separator: ".").map(String.init)
            parts[1] = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
            do {
                _ = try await app.til.signingKeys.verify(parts.joined(separator: "."))
                XCTFail("verified a changed payload")
            } catch let error as JOSEError {
                XCTAssertEqual(error, .badSignature)
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// True when `run` occurs in these bytes.
    func containsRun(of run: [UInt8]) -> Bool {
        guard !run.isEmpty, run.count <= count else { return false }
        return (0...(count - run.count)).contains { Array(self[$0..<($0 + run.count)]) == run }
    }
}
