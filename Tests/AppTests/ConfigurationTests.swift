import Postgres
import Web
import XCTest
@testable import App

/// Start-up configuration, without a database: every declared variable is strict, its declared
/// default is what applies while it is unset, and the admin password rules.
final class ConfigurationTests: XCTestCase {
    private let database = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til"]
    /// A configuration that starts, for changing one variable at a time.
    private let base = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til", "ENVIRONMENT": "testing"]

    /// Everything `serve` reads from exactly `variables`: the app's configuration and the server's settings.
    private func loadExactly(_ variables: [String: String]) throws -> (AppConfiguration, ServerSettings) {
        let reader = ConfigReader(environment: variables)
        return (try AppConfiguration(reader: reader), try ServerSettings(reader: reader))
    }

    /// `base` with `variables` on top.
    private func load(_ variables: [String: String]) throws -> (AppConfiguration, ServerSettings) {
        try loadExactly(base.merging(variables) { _, new in new })
    }

    private func load(_ environment: Environment, _ variables: [String: String] = [:]) throws -> AppConfiguration {
        try load(variables.merging(["ENVIRONMENT": environment.name]) { $1 }).0
    }

    /// The operator's message for a configuration that must not start; nil when it starts.
    private func message(_ variables: [String: String], exactly: Bool = false) -> String? {
        do {
            _ = exactly ? try loadExactly(variables) : try load(variables)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// For each declared variable, values it does not accept. Free text has none: any host,
    /// role, password or database name is for PostgreSQL to judge.
    private let refused: [EnvironmentVariable: [String]] = [
        .environment: ["producton", "dev"], .databaseURL: ["mysql://x@y/z", "postgres://u@h/d?sslmode=on"],
        .databasePort: ["abc", "0", "65536"], .databaseReadURL: ["postgres://a/til,http://b"],
        .databaseStatementCache: ["maybe", "no"], .port: ["80x", "-1", "65536"], .maxConnections: ["0", "lots"],
        .tlsCertificate: ["/nonexistent.pem"], .tlsKey: ["/nonexistent.key"], .adminPassword: ["short", "pass\u{0}word"],
        .bcryptCost: ["3", "32", "abc"], .commonPasswordCheck: ["maybe", "no"], .logLevel: ["loud"], .tokenTTL: ["0", "1h"], .refreshTokenTTL: ["0"],
        .refreshReuseGrace: ["-1", "301"], .refreshRateLimit: ["0", "10001"], .sessionMaxLifetime: ["0", "31622401"],
        .tokenPurgeInterval: ["0", "1m"], .loginMaxFailures: ["0"], .loginWindow: ["0"],
        .loginAccountBackoffThreshold: ["0", "10001"], .loginAccountBackoffBase: ["0", "3601"], .loginAccountBackoffMax: ["0", "1d"],
        .loginAccountBackoffWindow: ["59", "2592001"], .loginQueueLimit: ["-1"],
        .loginMaxWait: ["0"], .trustedProxies: ["10.0.0.0/33", "proxy.local"], .acronymEditPolicy: ["admins"],
        .metrics: ["maybe"], .metricsPort: ["0", "http"], .metricsHost: ["metrics.local", "300.1.1.1", "127.0.0.1:9100"],
        .oauthRegistration: ["anyone"], .authCodeTTL: ["0", "601"], .deviceCodeTTL: ["59", "1801", "10m"], .browserSessionIdle: ["59", "2592001", "12h"],
        .reauthWindow: ["9", "86401", "10m"],
        .resources: ["notes.example=notes:read", "https://notes.example", "https://n.example=account", "https://n.example#x=a"],
        .resourceScopeDescriptions: ["unknown:scope=words"],
        .issuer: ["til.example", "https://til.example/", "https://til.example?x=1", "ftp://til.example", "https://"],
        // 31 bytes in hex and base64, and text that is neither.
        .secretKey: [String(repeating: "ab", count: 31), "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHg", "correct horse battery staple"],
        .jwksMaxAge: ["0", "86401", "5m"],
        .webAuthnRPID: ["127.0.0.1", "::1", "[::1]", "til.example/x", "-til.example"],
        .webAuthnOrigins: ["http://til.example", "https://til.example/login", "https://127.0.0.1", " , ", "til.example"],
        .smtpURL: ["http://mail.example", "smtp://mail.example/relay", "smtp://mail.example:0", "smtp://"],
        .mailFrom: ["no address", "a@b.example\r\nBcc: c@d.example", "two@at@signs"],
        .smtpCAFile: ["/nonexistent/ca.pem"],
        .passwordResetTTL: ["299", "86401", "30m"],
        .smtpTimeout: ["0", "601", "5s"],
        .personalAccessTokenMaxTTL: ["0", "158112001", "1y"],
    ]
    private let freeText: Set<EnvironmentVariable> = [.databaseHost, .databaseUsername, .databasePassword, .databaseName]

    func testEveryVariableRefusesWhatItDoesNotAcceptNamingItAndWhatItAccepts() {
        XCTAssertEqual(
            Set(EnvironmentVariable.allCases), Set(refused.keys).union(freeText), "a new variable needs refused values here")
        for (variable, values) in refused {
            for value in values {
                var variables = [variable.name: value]
                if variable == .tlsCertificate { variables["TLS_KEY"] = "/nonexistent.key" }
                if variable == .tlsKey { variables["TLS_CERTIFICATE"] = "/nonexistent.pem" }
                guard let message = message(variables) else {
                    XCTFail("\(variable.name)=\(value) was accepted")
                    continue
                }
                if variable == .tlsCertificate || variable == .tlsKey {
                    XCTAssertTrue(message.contains("/nonexistent."), message)  // TLS names the file that failed
                    continue
                }
                XCTAssertTrue(message.hasPrefix("\(variable.name) must be \(variable.declaration.accepts)"), message)
                XCTAssertEqual(message.contains("'\(value)'"), !variable.declaration.isSecret, "a secret is never quoted: \(message)")
            }
        }
    }

    func testTheExamplesOfTheIssueAllRefuseToStart() {
        XCTAssertEqual(message(["PORT": "80x"]), "PORT must be a port number from 0 (any free one) to 65535, not '80x'.")
        XCTAssertEqual(
            message(["DATABASE_URL": "", "DATABASE_PORT": "abc"]), "DATABASE_PORT must be a port number from 1 to 65535, not 'abc'.")
        XCTAssertEqual(message(["BCRYPT_COST": "abc"]), "BCRYPT_COST must be a whole number from 4 to 31, not 'abc'.")
        XCTAssertEqual(
            message(["ENVIRONMENT": "producton"]), "ENVIRONMENT must be one of development, testing, production, not 'producton'.")
    }

    /// What the help and the README say is the default is what applies while a variable is unset.
    func testADeclaredDefaultIsWhatAppliesWhenUnset() throws {
        let production = ["ADMIN_PASSWORD": "correct horse"]  // no DATABASE_URL either: the parts apply
        let unset = try loadExactly(production)
        for variable in EnvironmentVariable.allCases {
            guard case .value(let value) = variable.declaration.defaultValue else { continue }
            let set = try loadExactly(production.merging([variable.name: value]) { $1 })
            XCTAssertEqual("\(set.0)", "\(unset.0)", "\(variable.name)=\(value)")
            XCTAssertEqual("\(set.1)", "\(unset.1)", "\(variable.name)=\(value)")
        }
    }

    func testAnEmptyValueCountsAsUnset() throws {
        let starting = base.merging(["ADMIN_PASSWORD": "correct horse"]) { $1 }
        for variable in EnvironmentVariable.allCases {
            var empty = starting, unset = starting
            empty[variable.name] = ""
            unset[variable.name] = nil
            XCTAssertEqual(message(empty, exactly: true), message(unset, exactly: true), variable.name)
            if let (configuration, server) = try? loadExactly(unset) {
                let (emptied, emptiedServer) = try loadExactly(empty)
                XCTAssertEqual("\(emptied)\(emptiedServer)", "\(configuration)\(server)", variable.name)
            }
        }
    }

    func testAnOptionWinsOverItsVariableAndIsNamedWhenWrong() throws {
        let reader = ConfigReader(environment: ["PORT": "9000", "MAX_CONNECTIONS": "5"])
        XCTAssertEqual(try ServerSettings(reader: reader.overriding(.port, with: "9001", from: "--port")).port, 9001)
        XCTAssertEqual(try ServerSettings(reader: reader.overriding(.port, with: nil, from: "--port")).port, 9000)
        XCTAssertEqual(try ServerSettings(reader: reader.overriding(.port, with: "0", from: "--port")).port, 0, "any free port")
        XCTAssertThrowsError(try ServerSettings(reader: reader.overriding(.maxConnections, with: "0", from: "--max-connections"))) {
            XCTAssertEqual("\($0)", "--max-connections (MAX_CONNECTIONS) must be a whole number from 1 to 1000000, not '0'.")
        }
    }

    func testTheDatabaseFromItsURLOrItsParts() throws {
        func database(_ variables: [String: String]) throws -> PostgresConfiguration {
            try PostgresConfiguration(reader: ConfigReader(environment: variables))
        }
        let parts = try database([
            "DATABASE_HOST": "h", "DATABASE_PORT": "7", "DATABASE_USERNAME": "u", "DATABASE_PASSWORD": "p", "DATABASE_NAME": "d",
            "DATABASE_STATEMENT_CACHE": "off",
        ])
        XCTAssertEqual([parts.host, "\(parts.port)", parts.username, parts.password ?? "", parts.database], ["h", "7", "u", "p", "d"])
        XCTAssertFalse(parts.statementCache)
        let url = try database(["DATABASE_URL": "postgres://a:b@c:6/e", "DATABASE_HOST": "ignored", "DATABASE_STATEMENT_CACHE": "off"])
        XCTAssertEqual([url.host, "\(url.port)", url.username, url.database], ["c", "6", "a", "e"])
        XCTAssertFalse(url.statementCache)
        XCTAssertTrue(try database(["DATABASE_URL": "postgres://a@c/e?statement_cache=on", "DATABASE_STATEMENT_CACHE": "off"]).statementCache)
        let none = try database([:])
        XCTAssertEqual(none.endpointDescription, "127.0.0.1:5432/til as til")
        XCTAssertTrue(PostgresConfiguration.isUnset(in: ConfigReader(environment: ["DATABASE_PORT": "5433"])))
        XCTAssertFalse(PostgresConfiguration.isUnset(in: ConfigReader(environment: ["DATABASE_HOST": "db"])))
        XCTAssertFalse(PostgresConfiguration.isUnset(in: ConfigReader(environment: self.database)))
    }

    func testProductionRequiresAnAdminPasswordWhereItMaySeedTheAdmin() throws {
        XCTAssertEqual(
            message(database, exactly: true),
            "ADMIN_PASSWORD must be set in production: the password of the admin account the first migration creates "
                + "(8 to 72 bytes, without NUL).")
        XCTAssertEqual(message(["ENVIRONMENT": "production", "ADMIN_PASSWORD": "password"]), "ADMIN_PASSWORD must not be the built-in 'password' in production.")
        let configuration = try load(.production, ["ADMIN_PASSWORD": "correct horse"])
        XCTAssertEqual(configuration.adminPassword, "correct horse")
        XCTAssertTrue(configuration.adminPasswordIsSet)
        XCTAssertFalse(configuration.usesBuiltInAdminPassword)
        // `routes` and `users` never migrate: they need no ADMIN_PASSWORD, but a bad one is still refused.
        XCTAssertNoThrow(try AppConfiguration(reader: ConfigReader(environment: database), seedsAdmin: false))
        XCTAssertThrowsError(try AppConfiguration(reader: ConfigReader(environment: ["ADMIN_PASSWORD": "short"]), seedsAdmin: false))
    }

    func testDevelopmentAndTestingFallBackToTheBuiltInPassword() throws {
        for environment in [Environment.development, .testing] {
            let configuration = try load(environment)
            XCTAssertEqual(configuration.adminPassword, "password")
            XCTAssertTrue(configuration.usesBuiltInAdminPassword)
            XCTAssertFalse(configuration.adminPasswordIsSet)
        }
    }

    func testBuiltInPasswordIsServedOnlyOnLoopback() throws {
        let development = try load(.development)
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            XCTAssertNoThrow(try development.checkAdminPassword(servingOn: host), host)
        }
        for host in ["0.0.0.0", "::", "192.168.1.10", "example.com", "127.0.0.1.example.com"] {
            XCTAssertThrowsError(try development.checkAdminPassword(servingOn: host), host) { error in
                XCTAssertEqual(
                    "\(error)",
                    "Refusing to serve on \(host) with the built-in admin password 'password': "
                        + "set ADMIN_PASSWORD (8 to 72 bytes, without NUL), or serve on 127.0.0.1.")
            }
        }
        let chosen = try load(.development, ["ADMIN_PASSWORD": "correct horse"])
        XCTAssertNoThrow(try chosen.checkAdminPassword(servingOn: "0.0.0.0"))
    }

    func testPasswordRulesCountBytes() {
        XCTAssertEqual(PasswordRules.byteCount, 8...72)
        XCTAssertNil(message(["ADMIN_PASSWORD": String(repeating: "é", count: 36)]))  // 72 bytes, 36 characters
        XCTAssertNotNil(message(["ADMIN_PASSWORD": String(repeating: "é", count: 37)]))
        XCTAssertNoThrow(try PasswordRules().validate(String(repeating: "a", count: 72)))
        XCTAssertNoThrow(try PasswordRules().validate("ééééé"))  // 5 characters, 10 bytes
        XCTAssertThrowsError(try PasswordRules().validate("e\u{301}e\u{301}", field: "secret")) { error in
            XCTAssertEqual((error as? any AbortError)?.status, .badRequest)
            XCTAssertEqual((error as? any AbortError)?.reason, "'secret' must be at least 8 bytes.")
        }
    }
}
