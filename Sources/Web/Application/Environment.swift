import Foundation

/// Where the app runs: development shows error details, testing is for the test suite,
/// production hides internals and insists on real secrets.
public struct Environment: Sendable, Equatable, CustomStringConvertible {
    public var name: String

    public init(name: String) { self.name = name.lowercased() }

    public static let development = Environment(name: "development")
    public static let testing = Environment(name: "testing")
    public static let production = Environment(name: "production")

    /// From the `ENVIRONMENT` variable; production when unset or empty.
    ///
    /// Fails closed: a deployment that forgets the variable gets production's rules (hidden
    /// internals, required secrets). Development is only ever chosen on purpose.
    public static func detect() -> Environment {
        detect(ProcessInfo.processInfo.environment)
    }

    public static func detect(_ environment: [String: String]) -> Environment {
        guard let name = environment["ENVIRONMENT"], !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .production
        }
        return named(name)
    }

    /// `development`, `testing` or `production` (or `dev`, `test`, `prod`), any case; other
    /// names become custom environments, which the framework treats like production.
    public static func named(_ name: String) -> Environment {
        switch name.trimmingCharacters(in: .whitespaces).lowercased() {
        case "prod", "production": .production
        case "test", "testing": .testing
        case "dev", "development": .development
        case let other: Environment(name: other)
        }
    }

    public var description: String { name }
}
