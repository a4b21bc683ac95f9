import Foundation
import Logging
import Web
import WebTesting
import XCTest

// The token lifecycle as an external client sees it (issue 8's contract): answers decoded into
// the client's own structs, never the server's types, so the tests check the wire, not the code.

/// The body of a login or refresh answer.
struct LoginAnswer: Decodable {
    struct UserID: Decodable { var id: UUID }
    var id: UUID
    var value: String
    var user: UserID
    var expiresAt: String
    var refreshToken: String
    var refreshExpiresAt: String
    var scopes: [String]
    var tokenType: String
}

/// One entry of `GET /api/users/me/sessions`.
struct SessionEntry: Decodable {
    var id: UUID
    var createdAt: String
    var lastUsedAt: String?
    var expiresAt: String
    var refreshExpiresAt: String
    var userAgent: String?
    var scopes: [String]
    var current: Bool
}

/// `GET /api/users/me` and the user listings.
struct PublicUser: Decodable, Equatable {
    var id: UUID
    var name: String
    var username: String
}

/// Every JSON error: `{"error": true, "reason": "..."}`.
struct ErrorAnswer: Decodable {
    var error: Bool
    var reason: String
}

/// The four scopes a login grants unless `?scope=` asks for fewer.
let allScopes: Set<String> = ["acronyms:write", "categories:write", "users:write", "account"]

/// An ISO 8601 time as the contract writes it ("2026-11-23T12:00:00Z").
func contractDate(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Date {
    let date = try? Date(text, strategy: .iso8601)
    return try XCTUnwrap(date, "not an ISO 8601 time: \(text)", file: file, line: line)
}

/// Sleeps `seconds` (every wait in these tests is short and explicit).
func pause(_ seconds: Double) async throws {
    try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}

/// Seconds taken by `work`, measured on the monotonic clock.
func seconds(_ work: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await work()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

extension TestClient {
    static func basic(_ username: String, _ password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// `POST /api/users/login`, optionally with `?scope=` (spaces are sent as %20).
    func login(
        _ username: String, _ password: String = "password", scope: String? = nil, headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        var path = "/api/users/login"
        if let scope { path += "?scope=" + scope.replacingOccurrences(of: " ", with: "%20") }
        var headers = headers
        headers.replaceOrAdd(name: "Authorization", value: Self.basic(username, password))
        return try await send(.post, path, headers: headers)
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

    /// A request with `Authorization: Bearer token` and, when given, a JSON body.
    func send(
        _ method: HTTPMethod, _ path: String, bearer token: String, json body: (some Encodable)? = Optional<String>.none,
        headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)")
        if let body { return try await send(method, path, headers: headers, json: body) }
        return try await send(method, path, headers: headers)
    }

    /// The status of `GET /api/users/me` with `token`: 200 while the token lives, 401 after.
    func meStatus(_ token: String) async throws -> Int {
        try await send(.get, "/api/users/me", bearer: token).status.code
    }

    /// The status of a refresh with `token` (which spends it when it works).
    func refreshStatus(_ token: String) async throws -> Int {
        try await refresh(token).status.code
    }
}

/// Asserts a 401 that names an invalid token, as the contract's bearer challenge does.
func assertInvalidToken(_ response: TestResponse, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(response.status.code, 401, "\(message): \(response.bodyString)", file: file, line: line)
    let challenge = response.headers["WWW-Authenticate"] ?? ""
    XCTAssertTrue(challenge.hasPrefix(#"Bearer realm="TIL""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"error="invalid_token""#), "\(message): challenge \(challenge)", file: file, line: line)
    XCTAssertTrue(challenge.contains(#"error_description=""#), "\(message): challenge \(challenge)", file: file, line: line)
}
