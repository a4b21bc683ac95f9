import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// The account page's "add a passkey" endpoints under races and a balancer: one registration
/// answer posted many times at once stores one passkey, and an answer to options drawn on one
/// `til-server` process is accepted by the other and then by neither again.
final class PasskeyPageRegistrationRaceTests: XCTestCase {
    func testOnePageRegistrationPostedManyTimesAtOnceStoresOnePasskey() async throws {
        try await withTestApp(.live, settings: PasskeyRaceTests.oneOrigin) { app in
            let user = try await User.create(username: "page-registrar", on: app)
            let browser = BrowserClient(app.client)
            let page = try await browser.accountPage(signingInAs: user.username)
            let adding = try PageRegistration(cookie: "til_session=" + (try XCTUnwrap(browser.cookies["til_session"])), page: page)
            for trial in 1...3 {
                var authenticator = try PasskeyCeremony.authenticator()
                let body = try await adding.answer(&authenticator, from: app.client, name: "Key \(trial)")
                let client = app.client
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for _ in 0..<8 { group.addTask { try await adding.post(client, "/account/passkeys", body) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                XCTAssertEqual(answers.map(\.status.code).sorted(), [201] + Array(repeating: 400, count: 7), "trial \(trial)")
                for refused in answers where refused.status.code != 201 {
                    assertRefused(refused, 400, mentioning: "already used", "trial \(trial)")
                }
            }
            let stored = try await app.number("SELECT count(*)::int AS n FROM passkeys WHERE user_id = \(user.id)")
            XCTAssertEqual(stored, 3, "one per answer")
        }
    }
}

/// Two `til-server` processes over one database: the account page's options drawn on A, the
/// answer posted to B, the replay refused on A.
final class PasskeyPageRegistrationAcrossProcessesTests: ServerProcessTestCase {
    func testPageOptionsFromOneProcessAreAnsweredOnTheOtherOnce() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: ["WEBAUTHN_ORIGINS": PasskeyCeremony.origin])
            let (a, b) = (servers[0].client, servers[1].client)
            let user = try await User.create(username: "Ånund-adds", on: app)
            let browser = BrowserClient(a)
            let page = try await browser.accountPage(signingInAs: user.username)
            let adding = try PageRegistration(cookie: "til_session=" + (try XCTUnwrap(browser.cookies["til_session"])), page: page)
            var authenticator = try PasskeyCeremony.authenticator(.edDSA)
            let body = try await adding.answer(&authenticator, from: a, name: "Über-Schlüssel")
            let added = try await adding.post(b, "/account/passkeys", body)
            XCTAssertEqual(added.status.code, 201, added.bodyString)
            XCTAssertEqual(added.bodyString, #"{"next":"/account"}"#)
            assertRefused(try await adding.post(a, "/account/passkeys", body), 400, mentioning: "already used", "the replay on the issuing process")
            let names = try await app.til.db.query("SELECT name FROM passkeys WHERE user_id = \(user.id)").map { try $0.decode(column: "name", as: String.self) }
            XCTAssertEqual(names, ["Über-Schlüssel"])
        }
    }
}

/// The passkeys script's part of the account page: its session cookie and its CSRF token.
private struct PageRegistration: Sendable {
    let cookie: String
    let csrf: String

    init(cookie: String, page: TestResponse) throws {
        self.cookie = cookie
        csrf = try XCTUnwrap(page.csrfMeta)
    }

    /// JSON `body` posted as the script posts it.
    func post(_ client: TestClient, _ path: String, _ body: Data) async throws -> TestResponse {
        try await client.send(.post, path, headers: ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"], body: Array(body))
    }

    /// Options drawn from `client`, answered by `authenticator`: the body of the registration post.
    func answer(_ authenticator: inout SoftwareAuthenticator, from client: TestClient, name: String) async throws -> Data {
        let options = try await post(client, "/account/passkeys/options", Data("{}".utf8))
        XCTAssertEqual(options.status.code, 200, options.bodyString)
        let creation = try options.decode(PasskeyOptionsTests.Creation.self)
        let credential = try authenticator.register(
            challenge: try XCTUnwrap(Base64URL.decode(creation.challenge)), userID: try XCTUnwrap(Base64URL.decode(creation.user.id)))
        return Data(#"{"name":"\#(name)","credential":"#.utf8) + credential + Data("}".utf8)
    }
}
