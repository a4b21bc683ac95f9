import Foundation
import Web
import WebTesting
import XCTest

// Logging in, refreshing and probing a token, on WebTesting's `TestClient` and `TestAuth`:
// the one dialect every AppTests case speaks (the book's `sendRequest(loggedInRequest:)` logs
// in through `session`). Other requests send a token with `auth: .bearer(token)`.

extension TestClient {
    /// `POST /api/users/login` with HTTP Basic, optionally with `?scope=` (spaces sent as %20).
    func login(
        _ username: String, _ password: String = "password", scope: String? = nil, headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        var path = "/api/users/login"
        if let scope { path += "?scope=" + scope.replacingOccurrences(of: " ", with: "%20") }
        return try await send(.post, path, headers: headers, auth: .basic(username, password))
    }

    /// Logs in and decodes the answer, failing the test unless it is a 200.
    func session(
        _ username: String, _ password: String = "password", scope: String? = nil, headers: HTTPHeaders = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> LoginAnswer {
        let response = try await login(username, password, scope: scope, headers: headers)
        XCTAssertEqual(response.status.code, 200, "login \(username): \(response.bodyString)", file: file, line: line)
        return try response.decode(LoginAnswer.self)
    }

    /// `POST /api/users/refresh` with `{"refreshToken": token}`.
    func refresh(_ token: String) async throws -> TestResponse {
        try await send(.post, "/api/users/refresh", json: ["refreshToken": token])
    }

    /// Refreshes and decodes the new pair, failing the test unless it is a 200.
    func refreshed(_ token: String, file: StaticString = #filePath, line: UInt = #line) async throws -> LoginAnswer {
        let response = try await refresh(token)
        XCTAssertEqual(response.status.code, 200, "refresh: \(response.bodyString)", file: file, line: line)
        return try response.decode(LoginAnswer.self)
    }

    /// The status of `GET /api/users/me` with `token`: 200 while the token lives, 401 after.
    func meStatus(_ token: String) async throws -> Int {
        try await send(.get, "/api/users/me", auth: .bearer(token)).status.code
    }

    /// The status of a refresh with `token` (which spends it when it works).
    func refreshStatus(_ token: String) async throws -> Int {
        try await refresh(token).status.code
    }
}

/// The challenge to a request without a bearer token, from an app in process without `ISSUER`:
/// the realm, and where the API's protected resource metadata is (RFC 9728 §5.1).
let plainBearerChallenge =
    #"Bearer realm="TIL", resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/api""#

/// Asserts a 401 that names an invalid token, as the contract's bearer challenge does.
func assertInvalidToken(_ response: TestResponse, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(response.status.code, 401, "\(message): \(response.bodyString)", file: file, line: line)
    let challenge = response.headers["WWW-Authenticate"] ?? ""
    XCTAssertTrue(challenge.hasPrefix(#"Bearer realm="TIL""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"error="invalid_token""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"error_description=""#), "\(message): challenge \(challenge)", file: file, line: line)
}
