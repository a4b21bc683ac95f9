import Crypt
import Foundation
import Logging
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The book's `Application.testable()`: the real server on a free loopback port, over the
/// test database reset (revert everything, migrate) for each test case.
final class TestApp {
    let app: Application
    let til: TIL
    var client: TestClient { app.client }

    /// `settings` are extra environment variables for `AppConfiguration.load` (they win over
    /// the test defaults, e.g. `["TOKEN_TTL": "1"]`); `logger` replaces the silent test logger
    /// (to capture audit lines).
    static func testable(
        database: PostgresConfiguration? = nil, settings: [String: String] = [:], logger: Logger? = nil
    ) async throws -> TestApp {
        var variables = ProcessInfo.processInfo.environment
        guard variables["DATABASE_URL"] != nil else {
            throw XCTSkip("DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL")
        }
        variables["BCRYPT_COST"] = "4"
        variables["ADMIN_PASSWORD"] = nil
        variables.merge(settings) { _, setting in setting }
        var configuration = try AppConfiguration.load(environment: .testing, from: variables)
        if let database { configuration.database = database }
        let logger = logger ?? {
            var silent = Logger(label: "til-test")
            silent.logLevel = .critical
            return silent
        }()
        let til = TIL(configuration: configuration, logger: logger)
        if database == nil {
            try await til.migrator.revertAll()
            try await til.migrator.migrate()
        }
        let app = Application(environment: .testing, logger: logger)
        try til.configure(app)
        try app.startForTesting()
        return TestApp(app: app, til: til)
    }

    private init(app: Application, til: TIL) {
        self.app = app
        self.til = til
    }

    func shutdown() async {
        await app.shutdown()
    }

    // MARK: The book's helpers

    /// Sends a request; with `loggedInRequest` (as admin) or `loggedInUser`, first logs in with
    /// HTTP Basic (password "password") and sends the token as a bearer header.
    @discardableResult
    func sendRequest(
        to path: String, method: HTTPMethod, headers: HTTPHeaders = [:], body: (some Encodable)? = Optional<String>.none,
        loggedInRequest: Bool = false, loggedInUser: User? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if loggedInRequest || loggedInUser != nil {
            let username = loggedInUser?.username ?? "admin"
            let token = try await logIn(username: username, password: "password")
            headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token.value)")
        }
        if let body {
            return try await client.send(method, path, headers: headers, json: body)
        }
        return try await client.send(method, path, headers: headers)
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
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        let response = try await client.send(.post, "/api/users/login", headers: ["Authorization": "Basic \(credentials)"])
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

/// A test case with a fresh app per test.
class TILTestCase: XCTestCase {
    var app: TestApp!

    override func setUp() async throws {
        app = try await TestApp.testable()
    }

    override func tearDown() async throws {
        await app?.shutdown()
        app = nil
    }
}
