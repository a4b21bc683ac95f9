import Crypt
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The book's testable app, on WebTesting's harness: the TIL app over the test database (reset
/// for each test: revert everything, migrate), reached through `Application.test(mode)` — the
/// real server on a free loopback port (`.live`, the default) or its responder in process.
///
/// ```swift
/// func testCreatingAnAcronym() async throws {
///     try await withTestApp { app in
///         let acronym = try await app.getResponse(
///             to: "/api/acronyms", method: .post, data: ["short": "OMG", "long": "Oh My God"],
///             decodeTo: Acronym.self, loggedInRequest: true)
///         XCTAssertEqual(acronym.short, "OMG")
///     }
/// }
/// ```
final class TestApp {
    let app: Application
    let til: TIL
    let client: TestClient

    private init(app: Application, til: TIL, client: TestClient) {
        self.app = app
        self.til = til
        self.client = client
    }

    /// Runs `body` against a fresh app; the app always shuts down afterwards. `settings` are
    /// extra environment variables for `AppConfiguration.load` (they win over the test
    /// defaults, e.g. `["TOKEN_TTL": "1"]`); `logger` replaces the silent test logger (to
    /// capture audit lines); `database` points the app elsewhere without resetting anything.
    static func run<R>(
        _ mode: TestingMode = .live, database: PostgresConfiguration? = nil, settings: [String: String] = [:],
        logger: Logger? = nil, _ body: (TestApp) async throws -> R
    ) async throws -> R {
        guard var configuration = try AppConfiguration.forTests(settings: settings) else {
            throw XCTSkip("DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL")
        }
        if let database { configuration.database = database }
        let logger = logger ?? {
            var silent = Logger(label: "til-test")
            silent.logLevel = .critical
            return silent
        }()
        let til = TIL(configuration: configuration, logger: logger)
        let app = Application(environment: .testing, logger: logger)
        do {
            if database == nil {
                try await til.migrator.revertAll()
                try await til.migrator.migrate()
            }
            try til.configure(app)
        } catch {
            await til.db.shutdown()
            throw error
        }
        return try await app.test(mode) { client in try await body(TestApp(app: app, til: til, client: client)) }
    }

    // MARK: The book's helpers

    /// Sends a request; with `loggedInRequest` (as admin) or `loggedInUser`, first logs in with
    /// HTTP Basic (password "password") and sends the token as a bearer header.
    @discardableResult
    func sendRequest(
        to path: String, method: HTTPMethod, headers: HTTPHeaders = [:], body: (some Encodable)? = Optional<String>.none,
        loggedInRequest: Bool = false, loggedInUser: User? = nil
    ) async throws -> TestResponse {
        var auth: TestAuth?
        if loggedInRequest || loggedInUser != nil {
            let token = try await logIn(username: loggedInUser?.username ?? "admin", password: "password")
            auth = .bearer(token.value)
        }
        if let body {
            return try await client.send(method, path, headers: headers, json: body, auth: auth)
        }
        return try await client.send(method, path, headers: headers, auth: auth)
    }

    /// Sends a request and decodes the response as `T`, failing the test on a non-2xx status.
    func getResponse<T: Decodable>(
        to path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], data: (some Encodable)? = Optional<String>.none,
        decodeTo type: T.Type, loggedInRequest: Bool = false, loggedInUser: User? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> T {
        let response = try await sendRequest(
            to: path, method: method, headers: headers, body: data, loggedInRequest: loggedInRequest, loggedInUser: loggedInUser)
        XCTAssertLessThan(response.status.code, 300, "\(method) \(path): \(response.bodyString)", file: file, line: line)
        return try response.decode(type)
    }

    func logIn(username: String, password: String) async throws -> Token {
        let response = try await client.send(.post, "/api/users/login", auth: .basic(username, password))
        guard response.status == .ok else { throw LoginFailed(status: response.status.code, body: response.bodyString) }
        return try response.decode(Token.self)
    }

    struct LoginFailed: Error {
        let status: Int
        let body: String
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

/// Runs `body` twice, each time against a fresh app: over loopback, then in process. The
/// answers must not depend on the transport.
func withTestAppInBothModes(settings: [String: String] = [:], _ body: (TestApp) async throws -> Void) async throws {
    for mode in [TestingMode.live, .inProcess] {
        try await TestApp.run(mode, settings: settings, body)
    }
}

/// Runs `body` against a fresh app (see `TestApp.run`).
func withTestApp<R>(
    _ mode: TestingMode = .live, settings: [String: String] = [:], logger: Logger? = nil, _ body: (TestApp) async throws -> R
) async throws -> R {
    try await TestApp.run(mode, settings: settings, logger: logger, body)
}
