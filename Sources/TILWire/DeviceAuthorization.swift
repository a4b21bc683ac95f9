/// The device authorization endpoint's answer (RFC 8628 §3.2), as the server writes it and the
/// client reads it: the code the device polls with, and what the person is shown.
public struct DeviceAuthorization: Codable, Sendable, Hashable {
    public var deviceCode: String
    /// `XXXX-XXXX`, typed on the verification page.
    public var userCode: String
    public var verificationURI: String
    /// The page with the code filled in, for a browser opened for the person.
    public var verificationURIComplete: String?
    public var expiresIn: Int
    /// Seconds between polls, until the server says `slow_down`.
    public var interval: Int?

    public init(
        deviceCode: String, userCode: String, verificationURI: String, verificationURIComplete: String?, expiresIn: Int, interval: Int?
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }
}
