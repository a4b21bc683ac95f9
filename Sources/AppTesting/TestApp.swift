public import App
public import Logging
public import Postgres
public import Web
public import WebTesting
import XCTest

/// The TIL app under test, in the book's shape: the real app over the shared test database
/// (`TestDatabase`: migrated once per process, emptied and reseeded before each test), reached
/// in process by default or over loopback with `.live`.
///
/// ```swift
/// try await TestApp.run { app in
///     let response = try await app.client.send(.get, "/api/acronyms")
///     XCTAssertEqual(response.bodyString, "[]")
/// }
/// ```
public final class TestApp {
    public let app: Application
    public let til: TIL
    public let client: TestClient

    private init(app: Application, til: TIL, client: TestClient) {
        self.app = app
        self.til = til
        self.client = client
    }

    /// Runs `body` against a fresh app, which always shuts down afterwards. `settings` are
    /// environment variables for `AppConfiguration.load` over the test defaults (bcrypt cost
    /// 4, admin password "password"), e.g. `["TOKEN_TTL": "1"]`; `logger` replaces the quiet
    /// one (a `LogCapture`'s, to read the audit lines); `database` points the app elsewhere
    /// and leaves the test database alone; `clock` replaces the second factors' clock (TOTP
    /// steps, mfaToken expiry); `mail` replaces how mail goes out (`.notConfigured`: production
    /// without `SMTP_URL`). Skips the test without `DATABASE_URL`.
    public static func run<R>(
        _ mode: TestingMode = .inProcess, database: PostgresConfiguration? = nil, settings: [String: String] = [:],
        logger: Logger? = nil, clock: SecondFactorClock? = nil, mail: MailSettings? = nil, _ body: (TestApp) async throws -> R
    ) async throws -> R {
        _ = try testDatabaseURL()
        var configuration = try XCTUnwrap(try AppConfiguration.forTests(settings: settings))
        if let database { configuration.database = database }
        if let clock { configuration.secondFactorClock = clock }
        if let mail { configuration.mail = mail }
        // In process, on the test database as configured by default and logging quietly, the app
        // borrows the process's client: no connection to open. (A live server's loops would
        // keep pools of their own in it.)
        let borrows = mode == .inProcess && database == nil && logger == nil
            && !settings.keys.contains { $0.hasPrefix("DATABASE_") }
        let logger = logger ?? .quiet("til-test")
        let til = TIL(configuration: configuration, logger: logger, sharedDatabase: borrows ? try TestDatabase.client() : nil)
        let app = Application(environment: .testing, logger: logger)
        do {
            if database == nil { try await TestDatabase.prepare(for: til) }
            try til.configure(app)
        } catch {
            if !borrows { await til.db.shutdown() }
            throw error
        }
        return try await app.test(mode) { client in try await body(TestApp(app: app, til: til, client: client)) }
    }
}
