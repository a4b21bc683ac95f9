/// A configuration mistake, with a message meant for the operator: it names the variable (or
/// option) and what it accepts. `til-server` prints it as one line and exits 78 (EX_CONFIG).
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
