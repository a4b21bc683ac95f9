public import Foundation

/// What the device authorization endpoint answered (RFC 8628 §3.2): the code to poll with,
/// and what the person is shown.
public struct DeviceAuthorization: Decodable, Sendable {
    public var deviceCode: String
    /// `XXXX-XXXX`, typed on the verification page.
    public var userCode: String
    public var verificationURI: URL
    /// The page with the code filled in, for a browser opened for the person.
    public var verificationURIComplete: URL?
    public var expiresIn: Int
    /// Seconds between polls, until the server says `slow_down`.
    public var interval: Int?

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }
}
