public import Foundation

/// The one reader of the environment, in the shape of Hummingbird's `init(reader:)`: each
/// configuration value of the app reads what it needs from it, and the modules below (Web,
/// HTTP1, Postgres) take the plain values that come out.
///
/// It reads only declared variables (`EnvironmentVariable`), parses each by its declaration,
/// and refuses a bad value with an error naming the variable and what it accepts. An empty
/// value counts as unset. A command-line option (`--port`) overrides its variable, and an
/// error then names the option.
public struct ConfigReader: Sendable {
    private let environment: [String: String]
    private var overrides: [EnvironmentVariable: (option: String, value: String)] = [:]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// This reader with `option`'s value in place of `variable`'s; a nil or empty value
    /// changes nothing.
    public func overriding(_ variable: EnvironmentVariable, with value: String?, from option: String) -> ConfigReader {
        guard let value, !value.isEmpty else { return self }
        var reader = self
        reader.overrides[variable] = (option, value)
        return reader
    }

    /// True when the variable (or its option) has a value.
    public func isSet(_ variable: EnvironmentVariable) -> Bool { string(variable) != nil }

    /// The text of `variable`, nil when unset or empty.
    public func string(_ variable: EnvironmentVariable) -> String? {
        let text = overrides[variable]?.value ?? environment[variable.name]
        return text?.isEmpty == false ? text : nil
    }

    /// The value `parse` makes of the text, nil when unset; when `parse` returns nil or throws,
    /// the error says what the variable accepts (with the reason `parse` threw, if any).
    public func value<T>(_ variable: EnvironmentVariable, _ parse: (String) throws -> T?) throws(ConfigurationError) -> T? {
        guard let text = string(variable) else { return nil }
        let parsed: T?
        do {
            parsed = try parse(text)
        } catch {
            throw invalid(variable, because: "\(error)")
        }
        guard let parsed else { throw invalid(variable) }
        return parsed
    }

    /// A whole number within the declared range (a number, seconds or a port).
    public func number(_ variable: EnvironmentVariable) throws(ConfigurationError) -> Int? {
        guard let range = variable.declaration.accepts.range else { preconditionFailure("\(variable.name) is not a number") }
        return try value(variable) { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A declared number of seconds as a duration.
    public func seconds(_ variable: EnvironmentVariable) throws(ConfigurationError) -> Duration? {
        try number(variable).map { .seconds($0) }
    }

    /// `on` (true) or `off` (false), in any case.
    public func isOn(_ variable: EnvironmentVariable) throws(ConfigurationError) -> Bool? {
        try value(variable) { text in ["on": true, "off": false][text.lowercased()] }
    }

    /// One of the declared words, in any case, as `T`.
    public func choice<T: RawRepresentable<String>>(_ variable: EnvironmentVariable, as type: T.Type) throws(ConfigurationError) -> T? {
        try value(variable) { text in T(rawValue: text.lowercased()) }
    }

    /// "PORT must be a port number from 1 to 65535, not '80x'." A secret's value is never
    /// quoted; `reason` adds what exactly was wrong, after a colon.
    public func invalid(_ variable: EnvironmentVariable, because reason: String? = nil) -> ConfigurationError {
        let declaration = variable.declaration
        var message = "\(source(of: variable)) must be \(declaration.accepts)"
        if !declaration.isSecret, let text = string(variable) { message += ", not '\(text)'" }
        if let reason { message += ": \(reason)" }
        return ConfigurationError(message + ".")
    }

    /// How the operator gave `variable`: "PORT", or "--port (PORT)" when an option did.
    public func source(of variable: EnvironmentVariable) -> String {
        overrides[variable].map { "\($0.option) (\(variable.name))" } ?? variable.name
    }
}
