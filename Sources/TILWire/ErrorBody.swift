/// The JSON body of every error answer: `{"error": true, "reason": "..."}`. The reason is
/// written for a person and names the field or rule that failed.
public struct ErrorBody: Codable, Sendable, Hashable {
    public var error: Bool
    public var reason: String

    public init(reason: String) {
        self.error = true
        self.reason = reason
    }
}
