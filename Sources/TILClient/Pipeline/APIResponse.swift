public import Foundation

/// An answer as the pipeline sees it: status, headers (names lowercased) and body.
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// The URL that was asked, to resolve relative `Link`s against.
    public var url: URL
    /// When the answer arrived, by this machine's clock.
    public var receivedAt: Date

    public init(status: Int, headers: [String: String], body: Data, url: URL, receivedAt: Date = Date()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.url = url
        self.receivedAt = receivedAt
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The `error` parameter of a Bearer `WWW-Authenticate` challenge: `invalid_token`,
    /// `insufficient_scope`, or nil.
    public var authenticateError: String? {
        header("WWW-Authenticate").flatMap { Challenge(parsing: $0).parameters["error"] }
    }

    /// The server's clock when it answered (`Date`, RFC 9110 §6.6.1), to correct for skew.
    var serverDate: Date? { header("Date").flatMap(HTTPDate.parse) }
}
