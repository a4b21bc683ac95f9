/// Why the TLS certificate and key cannot be used; `description` is meant for the operator.
public struct TLSSetupError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
