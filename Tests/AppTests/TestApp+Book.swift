import AppTesting
import Crypt
import Foundation
import Logging
import Web
import WebTesting
import XCTest
@testable import App

// The book's test helpers on AppTesting's `TestApp` (the app in process by default, over the
// test database emptied for each test), in one dialect with the token helpers of
// `TestClient+Auth.swift`: credentials are a `TestAuth`, and `loggedInRequest: true` (the
// admin) or `loggedInUser: user` log in first and send the token as a bearer.
//
// ```swift
// func testCreatingAnAcronym() async throws {
//     try await withTestApp { app in
//         let acronym = try await app.getResponse(
//             to: "/api/acronyms", method: .post, data: ["short": "OMG", "long": "Oh My God"],
//             decodeTo: Acronym.self, loggedInRequest: true)
//         XCTAssertEqual(acronym.short, "OMG")
//     }
// }
// ```

extension TestApp {
    /// Sends a request with `auth`, or as the admin (`loggedInRequest`) or `loggedInUser`
    /// after logging them in with the password "password".
    @discardableResult
    func sendRequest(
        to path: String, method: HTTPMethod, headers: HTTPHeaders = [:], body: (some Encodable)? = Optional<String>.none,
        auth: TestAuth? = nil, loggedInRequest: Bool = false, loggedInUser: User? = nil
    ) async throws -> TestResponse {
        var auth = auth
        if loggedInRequest || loggedInUser != nil {
            auth = .bearer(try await client.session(loggedInUser?.username ?? "admin").value)
        }
        if let body {
            return try await client.send(method, path, headers: headers, json: body, auth: auth)
        }
        return try await client.send(method, path, headers: headers, auth: auth)
    }

    /// Sends a request (as `sendRequest`) and decodes the answer as `T`, failing the test
    /// unless the status is 2xx.
    func getResponse<T: Decodable>(
        to path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], data: (some Encodable)? = Optional<String>.none,
        decodeTo type: T.Type, auth: TestAuth? = nil, loggedInRequest: Bool = false, loggedInUser: User? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> T {
        let response = try await sendRequest(
            to: path, method: method, headers: headers, body: data, auth: auth,
            loggedInRequest: loggedInRequest, loggedInUser: loggedInUser)
        XCTAssertLessThan(response.status.code, 300, "\(method) \(path): \(response.bodyString)", file: file, line: line)
        return try response.decode(type)
    }
}

// MARK: The book's model helpers

extension User {
    /// A user whose password is "password".
    static func create(name: String = "Luke", username: String? = nil, on app: TestApp) async throws -> User {
        let hash = try Bcrypt.hash("password", cost: 4)
        return try await UserRepository(db: app.til.db)
            .create(name: name, username: username ?? UUID().uuidString, passwordHash: hash)
    }
}

extension Acronym {
    static func create(short: String = "TIL", long: String = "Today I Learned", user: User? = nil, on app: TestApp) async throws -> Acronym {
        let owner: User
        if let user { owner = user } else { owner = try await User.create(on: app) }
        return try await AcronymRepository(db: app.til.db).create(short: short, long: long, userID: owner.id)
    }
}

extension App.Category {
    static func create(name: String = "Random", on app: TestApp) async throws -> App.Category {
        try await CategoryRepository(db: app.til.db).create(name: name)
    }
}

/// Runs `body` against a fresh app (see `TestApp.run`): in process unless `mode` is `.live`.
func withTestApp<R>(
    _ mode: TestingMode = .inProcess, settings: [String: String] = [:], logger: Logger? = nil, _ body: (TestApp) async throws -> R
) async throws -> R {
    try await TestApp.run(mode, settings: settings, logger: logger, body)
}

/// Runs `body` twice, each time against a fresh app: over loopback, then in process. The
/// answers must not depend on the transport.
func withTestAppInBothModes(settings: [String: String] = [:], _ body: (TestApp) async throws -> Void) async throws {
    for mode in [TestingMode.live, .inProcess] {
        try await TestApp.run(mode, settings: settings, body)
    }
}

/// The setup of the `til-server users` tests: the app in process, the environment for
/// `til-server` child processes over the same database, and one user made first.
func withCommandTestApp(
    username: String = "timc", _ body: (TestApp, [String: String], User) async throws -> Void
) async throws {
    let environment = try TILServerRun.testEnvironment()
    try await withTestApp { app in
        try await body(app, environment, try await User.create(username: username, on: app))
    }
}
