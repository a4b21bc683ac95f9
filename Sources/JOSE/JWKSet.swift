/// A JWK Set (RFC 7517 §5): what `jwks_uri` serves, every key a relying party may meet.
public struct JWKSet: Codable, Sendable, Equatable {
    public var keys: [JWK]

    public init(keys: [JWK]) {
        self.keys = keys
    }
}
