import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

// Personal access tokens as an external client sees them: the API's answers decoded into the
// tests' own structs (never the server's types), and the calls every PAT test makes.

/// The 201 body of `POST /api/users/me/tokens`.
struct CreatedPAT: Decodable {
    var id: UUID
    var name: String
    var token: String
    var scopes: [String]
    var createdAt: String
    var expiresAt: String
}

/// One entry of `GET /api/users/me/tokens`.
struct ListedPAT: Decodable {
    var id: UUID
    var name: String
    var scopes: [String]
    var createdAt: String
    var expiresAt: String
    var lastUsedAt: String?
    var lastUsedFrom: String?
}

/// The body `POST /api/users/me/tokens` takes.
struct PATRequest: Encodable {
    var name: String
    var scopes: [String]
    var expiresIn: Int
}

/// The regular expression a secret scanner would use for TIL's personal access tokens.
let patScannerPattern = #"til_pat_[A-Za-z0-9_-]{43}"#

extension TestClient {
    /// `POST /api/users/me/tokens` with `bearer`.
    func createPAT(
        _ name: String = "CI", scopes: [String] = ["acronyms:write"], expiresIn: Int = 86400, bearer: String
    ) async throws -> TestResponse {
        try await send(.post, "/api/users/me/tokens", json: PATRequest(name: name, scopes: scopes, expiresIn: expiresIn), auth: .bearer(bearer))
    }

    /// Creates a token and decodes it, failing the test unless the answer is a 201.
    func pat(
        _ name: String = "CI", scopes: [String] = ["acronyms:write"], expiresIn: Int = 86400, bearer: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> CreatedPAT {
        let response = try await createPAT(name, scopes: scopes, expiresIn: expiresIn, bearer: bearer)
        XCTAssertEqual(response.status.code, 201, "create \(name): \(response.bodyString)", file: file, line: line)
        return try response.decode(CreatedPAT.self)
    }

    /// `GET /api/users/me/tokens`, failing the test unless it is a 200.
    func listedPATs(bearer: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [ListedPAT] {
        let response = try await send(.get, "/api/users/me/tokens", auth: .bearer(bearer))
        XCTAssertEqual(response.status.code, 200, "list: \(response.bodyString)", file: file, line: line)
        return try response.decode([ListedPAT].self)
    }

    /// The status of `DELETE /api/users/me/tokens/:id` with `bearer`.
    func revokePAT(_ id: UUID, bearer: String) async throws -> Int {
        try await send(.delete, "/api/users/me/tokens/\(id.uuidString)", auth: .bearer(bearer)).status.code
    }
}

enum PersonalAccessTokenRows {
    /// A token made through the API by the login whose access token is `bearer`.
    static func create(by bearer: String, scopes: [String] = ["acronyms:write"], on app: TestApp) async throws -> CreatedPAT {
        try await app.client.pat("Fixture token", scopes: scopes, bearer: bearer)
    }
}

/// Asserts the 403 a personal access token gets on a route that needs a login.
func assertNeedsLogin(_ response: TestResponse, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(response.status.code, 403, "\(message): \(response.bodyString)", file: file, line: line)
    let reason = (try? response.decode(ErrorAnswer.self))?.reason
    XCTAssertEqual(reason, "needs a login, not a personal access token", message, file: file, line: line)
}
