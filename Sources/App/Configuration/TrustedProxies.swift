import Sockets

/// The proxies whose `X-Forwarded-For` TIL believes (`TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8,::1`):
/// `ClientAddressMiddleware` resolves each request's client address with them.
public struct TrustedProxies: Sendable {
    private(set) var networks: [IPNetwork] = []

    public init() {}

    /// Comma- or space-separated addresses and CIDR blocks; an unparsable entry is an error.
    public init(parsing text: String) throws {
        for entry in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let network = IPNetwork(String(entry)) else {
                throw ConfigurationError("'\(entry)' is not an IP address or CIDR block")
            }
            networks.append(network)
        }
    }

    public var isEmpty: Bool { networks.isEmpty }
}
