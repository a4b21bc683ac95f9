public import Foundation

/// A type a path or query parameter can be converted to. Our own protocol, so Foundation's
/// types gain no retroactive conformances to protocols we don't own.
public protocol ParameterDecodable: Sendable {
    init?(parameter: String)
}

extension String: ParameterDecodable {
    public init?(parameter: String) { self = parameter }
}

extension Int: ParameterDecodable {
    public init?(parameter: String) { self.init(parameter) }
}

extension UUID: ParameterDecodable {
    public init?(parameter: String) { self.init(uuidString: parameter) }
}
