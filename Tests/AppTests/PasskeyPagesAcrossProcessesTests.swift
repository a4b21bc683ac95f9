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

/// The sign-in page's passkey endpoints behind a balancer: two `til-server` processes over one
/// database, one browser (one pre-login cookie) talking to both. Options asked of one are
/// answered on the other and then on neither again; one answer posted to both at once starts
/// one browser session; the username is spelled otherwise each time.
final class PasskeyPagesAcrossProcessesTests: ServerProcessTestCase {
    func testOnePageAnswerRacedToBothProcessesStartsOneBrowserSession() async throws {
        try await withTestApp { app in
            servers = try await ServerProcess.healthy(2, settings: ["WEBAUTHN_ORIGINS": PasskeyCeremony.origin])
            let (a, b) = (servers[0].client, servers[1].client)
            let user = try await User.create(username: "Åsa-paged", on: app)
            let token = try await a.session(user.username, scope: "account").value
            var authenticator = try PasskeyCeremony.authenticator()
            try await PasskeyCeremony(client: a).registered(&authenticator, token: token)

            // The sign-in page from A: its pre-login cookie and CSRF token, good on B as well.
            let page = try await BrowserClient(a).get("/login")
            let cookie = try XCTUnwrap(page.headers.values(for: "Set-Cookie").first { $0.hasPrefix("til_login=") }?
                .split(separator: ";").first.map(String.init))
            let csrf = try XCTUnwrap(try HTMLForm.only(in: page).value("csrf_token"))
            @Sendable func post(_ client: TestClient, _ path: String, _ body: Data) async throws -> TestResponse {
                try await client.send(
                    .post, path, headers: ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"], body: Array(body))
            }
            func answer(_ username: String, from client: TestClient) async throws -> Data {
                let options = try await post(client, "/login/passkey/options", Data(#"{"username":"\#(username)"}"#.utf8))
                XCTAssertEqual(options.status.code, 200, options.bodyString)
                let request = try options.decode(PasskeyOptionsTests.Request.self)
                XCTAssertEqual(request.allowCredentials.map(\.id), [Base64URL.encode(authenticator.credentialID)], username)
                let assertion = try authenticator.assert(challenge: try XCTUnwrap(Base64URL.decode(request.challenge)))
                return Data(#"{"credential":"#.utf8) + assertion + Data("}".utf8)
            }

            // Options from A (NFD, upper case), the answer to B, the same answer again to A.
            let first = try await answer("A\u{30A}SA-PAGED", from: a)
            let signedIn = try await post(b, "/login/passkey", first)
            XCTAssertEqual(signedIn.status.code, 200, signedIn.bodyString)
            assertRefused(try await post(a, "/login/passkey", first), 401, mentioning: "already used", "the replay on the issuing process")

            // One answer posted four times to each process at once.
            for trial in 1...3 {
                let raced = try await answer("åsa-paged", from: trial.isMultiple(of: 2) ? a : b)
                let codes = try await statusCodes(of: (0..<8).map { index in { try await post(index.isMultiple(of: 2) ? a : b, "/login/passkey", raced) } })
                XCTAssertEqual(codes.sorted(), [200] + Array(repeating: 401, count: 7), "trial \(trial)")
            }
            let browserSessions = try await app.number("SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'browser'")
            XCTAssertEqual(browserSessions, 4, "one per answer")
        }
    }
}
