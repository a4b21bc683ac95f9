/// A complete request: head and the whole (de-chunked) body.
public struct HTTPRequest: Sendable {
    public var head: HTTPRequestHead
    public var body: [UInt8]
    /// The client's IP address as text ("127.0.0.1", "::1"), set by the connection; nil when
    /// unknown (a request built in process).
    public var remoteAddress: String?

    public init(head: HTTPRequestHead, body: [UInt8] = [], remoteAddress: String? = nil) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
