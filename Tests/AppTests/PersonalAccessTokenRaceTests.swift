import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Requests racing on one token or one account's cap: one revocation sent twice at once ends
/// the token once, and a burst of creations never passes the cap of live tokens.
final class PersonalAccessTokenRaceTests: XCTestCase {
    func testOneTokenRevokedTwiceAtOnceIsRevokedOnce() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            for trial in 1...5 {
                let pat = try await app.client.pat("race \(trial)", bearer: login.value)
                let client = app.client
                let codes = try await statusCodes(of: (0..<2).map { _ in
                    { try await client.send(.delete, "/api/users/me/tokens/\(pat.id.uuidString)", auth: .bearer(login.value)) }
                })
                XCTAssertEqual(codes.sorted(), [204, 404], "trial \(trial)")
                let status = try await app.client.meStatus(pat.token)
                XCTAssertEqual(status, 401, "trial \(trial)")
            }
            XCTAssertEqual(capture.lines.filter { $0.names("pat.revoked") }.count, 5, "one audit line per revocation")
        }
    }

    /// Eight creations at once with room for three: three made, five refused 409, and the
    /// account holds exactly the cap (each creation counts the live tokens under the user
    /// row's lock, after the ones before it committed).
    func testABurstOfCreationsNeverPassesTheCap() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            let cap = PersonalAccessTokenRepository.maxLivePerUser
            for trial in 1...3 {
                try await app.til.db.execute("""
                    WITH gone AS (UPDATE sessions SET revoked_at = now() WHERE user_id = \(user.id) AND kind = 'pat')
                    INSERT INTO sessions (id, user_id, kind, name, scopes, amr, expires_at, refresh_expires_at)
                    SELECT gen_random_uuid(), \(user.id), 'pat', 'filler ' || n, '', '{}', now() + interval '1 day', now() + interval '1 day'
                    FROM generate_series(1, \(cap - 3)) AS n
                    """)
                let client = app.client
                let codes = try await statusCodes(of: (0..<8).map { index in
                    { try await client.createPAT("burst \(index)", bearer: login.value) }
                })
                XCTAssertEqual(codes.sorted(), [201, 201, 201, 409, 409, 409, 409, 409], "trial \(trial)")
                let live = try await app.number("""
                    SELECT count(*)::int AS n FROM sessions WHERE user_id = \(user.id) AND kind = 'pat' AND revoked_at IS NULL
                    """)
                XCTAssertEqual(live, cap, "trial \(trial)")
            }
        }
    }

    /// The same token revoked at once through the API and the account page's button.
    func testTheAPIAndThePageRevokingOneTokenAtOnce() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "rhea-\(UUID().uuidString.prefix(6))", on: app)
            let login = try await app.client.session(user.username)
            let browser = BrowserClient(app.client)
            _ = try await browser.accountPage(signingInAs: user.username)
            for trial in 1...3 {
                let pat = try await app.client.pat("both \(trial)", bearer: login.value)
                let page = try await browser.get("/account")
                let form = try HTMLForm.posting(to: "/account/tokens/\(pat.id.uuidString.lowercased())/revoke", in: page)
                // The page's post built as the browser would send it, so both leave together.
                let cookie = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
                let headers: HTTPHeaders = ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"]
                let body = Array(QueryEncoding.encode(form.fields.map { (name: $0.name, value: $0.value) }).utf8)
                let (client, action) = (app.client, try XCTUnwrap(form.action))
                async let viaPage = client.send(.post, action, headers: headers, body: body)
                async let viaAPI = client.revokePAT(pat.id, bearer: login.value)
                let (pageAnswer, apiStatus) = try await (viaPage, viaAPI)
                let (pageRevoked, apiRevoked) = (pageAnswer.status.code == 303, apiStatus == 204)
                XCTAssertTrue(pageRevoked != apiRevoked, "trial \(trial): page \(pageAnswer.status.code), API \(apiStatus)")
                XCTAssertEqual(pageRevoked ? apiStatus : pageAnswer.status.code, 404, "trial \(trial): the other found it gone")
                let status = try await app.client.meStatus(pat.token)
                XCTAssertEqual(status, 401)
            }
        }
    }
}
