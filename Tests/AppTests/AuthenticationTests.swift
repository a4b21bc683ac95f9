import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Every guarded route refuses a missing, malformed, unknown or Basic-instead-of-Bearer
/// token with 401 and an RFC 6750 challenge; login refuses bad credentials with Basic.
final class AuthenticationTests: XCTestCase {
    func testGuardedRoutesRefuseBadTokens() async throws {
        try await withTestApp { app in
            let acronym = try await Acronym.create(on: app)
            let category = try await App.Category.create(on: app)
            let guarded: [(HTTPMethod, String)] = [
                (.post, "/api/users"), (.post, "/api/acronyms"), (.put, "/api/acronyms/\(acronym.id)"),
                (.delete, "/api/acronyms/\(acronym.id)"), (.post, "/api/acronyms/\(acronym.id)/categories/\(category.id)"),
                (.delete, "/api/acronyms/\(acronym.id)/categories/\(category.id)"), (.post, "/api/categories"),
            ]
            let basic = "Basic " + Data("admin:password".utf8).base64EncodedString()
            // No bearer credential: the plain challenge. A bearer credential that is not a live
            // token: `invalid_token`, so the client knows to refresh or log in again.
            let plain = #"Bearer realm="TIL""#
            let badHeaders: [(HTTPHeaders, String)] = [
                ([:], plain),
                (["Authorization": "Token abc"], plain),
                (["Authorization": basic], plain),
                (["Authorization": "Bearer"], #"error="invalid_token""#),
                (["Authorization": "Bearer \(String(repeating: "x", count: 600))"], #"error="invalid_token""#),
                (["Authorization": "Bearer not-a-real-token"], #"error="invalid_token""#),
            ]
            for (method, path) in guarded {
                for (headers, challenge) in badHeaders {
                    let response = try await app.client.send(
                        method, path, headers: headers.merging(["Content-Type": "application/json"]), body: Array(#"{"name":"x"}"#.utf8))
                    XCTAssertEqual(response.status.code, 401, "\(method) \(path) \(headers)")
                    let header = response.headers["WWW-Authenticate"] ?? ""
                    XCTAssertTrue(header.hasPrefix(plain) && header.contains(challenge), "\(method) \(path): \(header)")
                    if challenge == plain { XCTAssertEqual(header, plainBearerChallenge) }
                }
            }
            // Nothing was changed by the refused requests.
            let acronyms = try await app.getResponse(to: "/api/acronyms", decodeTo: [Acronym].self)
            XCTAssertEqual(acronyms, [acronym])
        }
    }

    func testLoginIssuesANewWorkingTokenEachTime() async throws {
        try await withTestApp { app in
            let first = try await app.client.session("admin")
            let second = try await app.client.session("admin")
            XCTAssertNotEqual(first.value, second.value)
            XCTAssertEqual(first.value.count, 43)
            for token in [first, second] {
                let response = try await app.client.send(.post, "/api/categories", json: ["name": "c"], auth: .bearer(token.value))
                XCTAssertEqual(response.status.code, 200)
            }
        }
    }

    func testTokensAreStoredOnlyAsDigests() async throws {
        try await withTestApp { app in
            let token = try await app.client.session("admin")
            let rows = try await app.til.db.query("SELECT digest FROM tokens")
            let digests = try rows.map { try $0.decode(column: "digest", as: String.self) }
            XCTAssertFalse(digests.contains(token.value))
            XCTAssertTrue(digests.allSatisfy { $0.count == 64 })
        }
    }

    func testBadCredentialsAre401WithBasicChallenge() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "someone", on: app)
            let attempts: [HTTPHeaders] = [
                [:],
                ["Authorization": "Basic " + Data("admin:wrong".utf8).base64EncodedString()],
                ["Authorization": "Basic " + Data("nobody:password".utf8).base64EncodedString()],
                ["Authorization": "Basic " + Data("\(user.username):\(String(repeating: "p", count: 100))".utf8).base64EncodedString()],
                ["Authorization": "Basic !!!notbase64"],
                ["Authorization": "Bearer abc"],
            ]
            for headers in attempts {
                let response = try await app.client.send(.post, "/api/users/login", headers: headers)
                XCTAssertEqual(response.status.code, 401, "\(headers)")
                XCTAssertEqual(response.headers["WWW-Authenticate"], #"Basic realm="TIL""#)
            }
            let token = try await app.client.session(user.username)
            XCTAssertEqual(token.user.id, user.id)
        }
    }
}

extension HTTPHeaders {
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other.fields { merged.add(name: field.name, value: field.value) }
        return merged
    }
}
