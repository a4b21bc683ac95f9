/// Where the app runs: development shows error details, testing is for the test suite,
/// production hides internals and insists on real secrets.
///
/// The framework never reads the process environment: the app decides (TIL reads its
/// `ENVIRONMENT` variable) and passes the result in.
public struct Environment: Sendable, Equatable, CustomStringConvertible {
    public var name: String

    public init(name: String) { self.name = name.lowercased() }

    public static let development = Environment(name: "development")
    public static let testing = Environment(name: "testing")
    public static let production = Environment(name: "production")

    public var description: String { name }
}
