import Foundation

/// Where the app runs: development shows error details, testing is for the test suite,
/// production hides internals and insists on real secrets.
public struct Environment: Sendable, Equatable, CustomStringConvertible {
    public var name: String

    public init(name: String) { self.name = name.lowercased() }

    public static let development = Environment(name: "development")
    public static let testing = Environment(name: "testing")
    public static let production = Environment(name: "production")

    /// From the `ENVIRONMENT` variable; development when unset.
    public static func detect() -> Environment {
        detect(ProcessInfo.processInfo.environment)
    }

    public static func detect(_ environment: [String: String]) -> Environment {
        switch environment["ENVIRONMENT"]?.lowercased() {
        case "prod", "production": return .production
        case "test", "testing": return .testing
        case let name?: return Environment(name: name)
        case nil: return .development
        }
    }

    public var description: String { name }
}
