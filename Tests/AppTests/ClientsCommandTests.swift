import AppTesting
import Foundation
import JOSE
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `til-server clients add|list|show|remove`, as real processes on the test database, while the
/// app runs in process over the same database (issue 18).
final class ClientsCommandTests: XCTestCase {
    private func field(_ name: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
    }

    func testTheOperatorRegistersATrustedClientUsesItAndRemovesIt() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let add = try await TILServerRun.run([
                "clients", "add", "--name", "TIL for iOS ✨", "--redirect-uri", "https://til.example/cb", "--grant-type", "authorization_code",
                "--grant-type", "client_credentials", "--scope", "account categories:write", "--trusted",
            ], environment: environment)
            XCTAssertEqual(add.status, 0, add.stderr)
            let id = try XCTUnwrap(field("client_id", in: add.stdout), add.stdout)
            let secret = try XCTUnwrap(field("client_secret", in: add.stdout)?.split(separator: " ").first.map(String.init))
            XCTAssertEqual(field("trusted", in: add.stdout), "true")
            XCTAssertEqual(field("scope", in: add.stdout), "account categories:write", "a trusted client may hold account")

            let list = try await TILServerRun.run(["clients", "list"], environment: environment)
            XCTAssertTrue(list.stdout.contains(id) && list.stdout.contains("TIL for iOS ✨"), list.stdout)
            let show = try await TILServerRun.run(["clients", "show", id], environment: environment)
            XCTAssertEqual(field("redirect_uris", in: show.stdout), "https://til.example/cb")
            XCTAssertNil(field("client_secret", in: show.stdout), "the secret is shown once")

            let token = try await app.client.postForm("/oauth/token", [("grant_type", "client_credentials")], auth: .basic(id, secret))
            XCTAssertEqual(token.status.code, 200, token.bodyString)
            let access = try XCTUnwrap(try token.jsonObject()["access_token"] as? String)
            let remove = try await TILServerRun.run(["clients", "remove", id], environment: environment)
            XCTAssertEqual(remove.status, 0, remove.stderr)
            let after = try await app.client.send(.post, "/api/categories", json: ["name": "late"], auth: .bearer(access))
            XCTAssertEqual(after.status.code, 401, "its tokens went with it")
        }
    }

    func testTheCommandAppliesTheRegistrationRules() async throws {
        let environment = try TILServerRun.testEnvironment()
        let insecure = try await TILServerRun.run(["clients", "add", "--redirect-uri", "http://til.example/cb"], environment: environment)
        insecure.assertFailure(1, mentioning: ["invalid_redirect_uri", "plain http is allowed only to a loopback host"])
        let untrusted = try await TILServerRun.run(
            ["clients", "add", "--redirect-uri", "https://a.example/cb", "--scope", "account"], environment: environment)
        untrusted.assertFailure(1, mentioning: ["invalid_client_metadata", "never granted to a third-party client"])
        let unknown = try await TILServerRun.run(["clients", "show", "no-such-client"], environment: environment)
        unknown.assertFailure(1, mentioning: ["no client with id 'no-such-client'"])
        let gone = try await TILServerRun.run(["clients", "remove", "no-such-client"], environment: environment)
        gone.assertFailure(1, mentioning: ["no client with id 'no-such-client'"])
    }

    /// `--id-token-alg` sets `id_token_signed_response_alg` by the registration's rule: ES256
    /// stored and shown, RS256 by default, anything else refused (spellings included).
    func testTheOperatorChoosesHowIDTokensAreSigned() async throws {
        let environment = try TILServerRun.testEnvironment()
        try await withTestApp { app in
            let es256 = try await TILServerRun.run(
                ["clients", "add", "--redirect-uri", "https://rp.example/cb", "--id-token-alg", "ES256"], environment: environment)
            XCTAssertEqual(es256.status, 0, es256.stderr)
            XCTAssertEqual(field("id_token_signed_response_alg", in: es256.stdout), "ES256")
            let id = try XCTUnwrap(field("client_id", in: es256.stdout))
            let stored = try await ClientRepository(db: app.til.db).find(id: id)
            XCTAssertEqual(stored?.idTokenAlgorithm, .es256)
            let plain = try await TILServerRun.run(["clients", "add", "--redirect-uri", "https://rp.example/cb"], environment: environment)
            XCTAssertEqual(field("id_token_signed_response_alg", in: plain.stdout), "RS256")
            for spelling in ["es256", "none", "HS256", "ＥＳ256"] {
                let refused = try await TILServerRun.run(
                    ["clients", "add", "--redirect-uri", "https://rp.example/cb", "--id-token-alg", spelling], environment: environment)
                refused.assertFailure(1, mentioning: ["invalid_client_metadata", "RS256 or ES256"])
            }
        }
    }

    /// A client id is typed on command lines: one starting with `-` was read as an option, so
    /// `clients remove` failed for one client in 64. Drawn 2,000 times, none starts so (by
    /// chance alone, 2,000 draws of base64url would hold one with odds of 1 − 10⁻¹⁴).
    func testNoClientIDStartsWithADash() {
        XCTAssertFalse((0..<2000).contains { _ in ClientRepository.newClientID().hasPrefix("-") })
    }
}
