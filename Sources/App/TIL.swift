import Crypt
public import Logging
public import Postgres
public import Web

/// The TIL application: its database client, migrations and routes, wired once.
///
/// ```swift
/// let til = TIL(configuration: config, logger: logger)
/// try await til.migrator.migrate()
/// let app = Application(environment: config.environment, logger: logger)
/// try til.configure(app)
/// try await app.run()
/// ```
public struct TIL: Sendable {
    public let configuration: AppConfiguration
    public let db: PostgresClient
    public let migrator: Migrator
    let hasher: BcryptHasher

    public init(configuration: AppConfiguration, logger: Logger) {
        self.configuration = configuration
        db = PostgresClient(configuration: configuration.database, logger: logger)
        hasher = BcryptHasher(cost: configuration.bcryptCost)
        migrator = Migrator(
            client: db, migrations: TILMigrations.all(adminPassword: configuration.adminPassword, hasher: hasher), logger: logger)
    }

    /// Registers middleware and routes, and closes the database when the app shuts down.
    public func configure(_ app: Application) throws {
        app.middleware.append(DatabaseErrorMiddleware())
        let users = UserRepository(db: db)
        let acronyms = AcronymRepository(db: db)
        let categories = CategoryRepository(db: db)
        let tokens = TokenRepository(db: db)
        try app.register(collection: HealthController(db: db))
        try app.register(collection: UsersController(
            users: users, acronyms: acronyms, tokens: tokens, login: BasicLogin(users: users, hasher: hasher), hasher: hasher))
        try app.register(collection: AcronymsController(acronyms: acronyms, users: users, categories: categories, tokens: tokens))
        try app.register(collection: CategoriesController(categories: categories, acronyms: acronyms, tokens: tokens))
        let db = db
        app.onShutdown { await db.shutdown() }
    }
}
