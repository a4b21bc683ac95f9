import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// What `POST /api/users/refresh` makes of a body that is not one honest refresh token: a
/// clear 4xx with a JSON reason, and never a spent token, a revoked session or a 500. The
/// session's real token is presented last and must still work.
final class RefreshInputTests: XCTestCase {
    private let json: HTTPHeaders = ["Content-Type": "application/json"]

    func testMalformedBodiesAreRefusedAndSpendNothing() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            let token = login.refreshToken
            let refused: [(label: String, headers: HTTPHeaders, body: [UInt8], status: Int)] = [
                ("escaped NUL", json, Array(#"{"refreshToken":"\#(token)\u0000"}"#.utf8), 400),
                ("raw NUL", json, Array(#"{"refreshToken":"\#(token)"#.utf8) + [0] + Array(#""}"#.utf8), 400),
                ("a number", json, Array(#"{"refreshToken":12345}"#.utf8), 400),
                ("null", json, Array(#"{"refreshToken":null}"#.utf8), 400),
                ("an array", json, Array(#"{"refreshToken":["\#(token)"]}"#.utf8), 400),
                ("a bare string", json, Array(#""\#(token)""#.utf8), 400),
                ("no body", json, [], 400),
                ("invalid UTF-8", json, Array(#"{"refreshToken":""#.utf8) + [0xFF, 0xFE, 0xC0] + Array(#""}"#.utf8), 400),
                ("truncated JSON", json, Array(#"{"refreshToken":"\#(token)""#.utf8), 400),
                ("not JSON", ["Content-Type": "text/plain"], Array(#"{"refreshToken":"\#(token)"}"#.utf8), 415),
                ("no Content-Type", [:], Array(#"{"refreshToken":"\#(token)"}"#.utf8), 415),
            ]
            for (label, headers, body, status) in refused {
                let response = try await app.client.send(.post, "/api/users/refresh", headers: headers, body: body)
                XCTAssertEqual(response.status.code, status, "\(label): \(response.bodyString)")
                XCTAssertEqual((try? response.decode(ErrorAnswer.self))?.error, true, "\(label): a JSON error: \(response.bodyString)")
            }
            // Well-formed JSON, but no token this server issued: the bearer challenge, nothing revoked.
            for (label, value) in [("empty", ""), ("513 bytes", String(repeating: "A", count: 513)), ("padded", token + " ")] {
                assertInvalidToken(try await app.client.refresh(value), label)
            }
            let live = try await app.liveRefreshTokens(of: login.id)
            XCTAssertEqual(live, 1, "nothing above spent the token")
            let redeemed = try await app.client.refreshStatus(token)
            XCTAssertEqual(redeemed, 200, "the real token, presented after all of them")
        }
    }

    /// The HTTP layer's body limit applies before the app reads anything.
    func testABodyOverTheLimitIs413AndSpendsNothing() async throws {
        // Live: the limit is the HTTP parser's, which only a socket goes through.
        try await withTestApp(.live) { app in
            let login = try await app.client.session("admin")
            let padding = String(repeating: "x", count: 1024 * 1024)
            let body = Array(#"{"refreshToken":"\#(login.refreshToken)","padding":"\#(padding)"}"#.utf8)
            let response = try await app.client.send(
                .post, "/api/users/refresh", headers: json.merging(["Connection": "close"]), body: body)
            XCTAssertEqual(response.status.code, 413, response.bodyString)
            let redeemed = try await app.client.refreshStatus(login.refreshToken)
            XCTAssertEqual(redeemed, 200, "the token inside the refused body was not spent")
        }
    }

    /// A refresh token is its bytes: another case, a look-alike alphabet, an invisible
    /// character or a compatibility form is an unknown token — not a reuse of the real one, so
    /// the session stays, and the real token still works.
    func testSpellingsOfATokenOtherThanItsBytesAreUnknownAndSpendNothing() async throws {
        try await withTestApp { app in
            let login = try await app.client.session("admin")
            let token = login.refreshToken
            let fullwidth = String(String.UnicodeScalarView(token.unicodeScalars.map { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? Unicode.Scalar(scalar.value + 0xFEE0)! : scalar
            }))
            let spellings = [
                ("swapped case", String(token.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })),
                ("fullwidth", fullwidth),
                ("zero-width space", token + "\u{200B}"),
                ("byte-order mark", "\u{FEFF}" + token),
                ("Unicode hyphens", token.replacingOccurrences(of: "-", with: "\u{2010}").replacingOccurrences(of: "_", with: "\u{FF3F}")),
            ]
            XCTAssertEqual(fullwidth.precomposedStringWithCompatibilityMapping, token, "NFKC folds the fullwidth form back")
            for (label, spelling) in spellings where spelling != token {
                let response = try await app.client.refresh(spelling)
                assertInvalidToken(response, label)
                XCTAssertTrue(response.bodyString.contains("unknown") || response.bodyString.contains("malformed"), "\(label): \(response.bodyString)")
            }
            let revoked = try await app.isRevoked(session: login.id)
            XCTAssertFalse(revoked, "a look-alike is not a second holder of the token")
            let redeemed = try await app.client.refreshStatus(token)
            XCTAssertEqual(redeemed, 200)
        }
    }
}
