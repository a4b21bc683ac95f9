/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another socket already listens on the address (another server, or an earlier run of
    /// this one). Sharing it takes `Configuration.reusePort` on the new server.
    case addressInUse(host: String, port: Int)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port): "\(host):\(port) is already in use"
        }
    }
}
