/// The relying party a ceremony is verified for: its RP ID (a domain, never an IP address;
/// the server's configuration checks that) and the exact origins its pages are served from.
public struct RelyingParty: Sendable, Equatable {
    public let id: String
    public let origins: [String]

    public init(id: String, origins: [String]) {
        self.id = id
        self.origins = origins
    }
}
