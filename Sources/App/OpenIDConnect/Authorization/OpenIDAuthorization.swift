import Foundation

/// The OpenID Connect parameters of an authorization request (Core §3.1.2.1), checked after
/// the OAuth ones: `nonce` (verbatim into the ID token; required of a public client that asks
/// for `openid`, which has no secret to bind its code to itself otherwise), `max_age` and
/// `prompt` (a space-separated set; `none` alone). Request objects (§6) are not supported:
/// `request` and `request_uri` are refused with their own errors, as §6.1 and §6.2 name them.
struct OpenIDAuthorization: Sendable, Equatable {
    let nonce: String?
    /// Seconds since the user's last sign-in beyond which they must sign in again.
    let maxAge: Int?
    let prompts: Set<AuthorizationRequest.Prompt>

    static let maxNonceBytes = 512
    /// A `max_age` above this (about 68 years) means nothing more; refused as malformed.
    static let maxMaxAge = Int(Int32.max)

    /// `request` and `request_uri` refused first, once the client and its redirect URI are
    /// proven: every other parameter (PKCE's, `nonce`, even `state`) may be inside the object
    /// (§6.1), so a complaint about one missing outside would be wrong; the error the client
    /// needs is that objects are not supported (the conformance suite's
    /// `...-supported-correctly-or-rejected-as-unsupported` modules).
    static func refuseRequestObjects(_ parameters: AuthorizationParameters) throws(AuthorizationError) {
        if parameters.single("request") != .absent { throw .requestNotSupported }
        if parameters.single("request_uri") != .absent { throw .requestURINotSupported }
    }

    init(_ parameters: AuthorizationParameters, scopes: [String], client: OAuthClient) throws(AuthorizationError) {
        prompts = try Self.prompts(parameters.single("prompt"))
        switch parameters.single("max_age") {
        case .absent: maxAge = nil
        case .duplicated: throw .invalidRequest("max_age was sent more than once.")
        case .value(let text):
            guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let seconds = Int(text), seconds <= Self.maxMaxAge
            else { throw .invalidRequest("max_age must be a number of seconds.") }
            maxAge = seconds
        }
        switch parameters.single("nonce") {
        case .absent: nonce = nil
        case .duplicated: throw .invalidRequest("nonce was sent more than once.")
        case .value(let value):
            guard !value.isEmpty, value.utf8.count <= Self.maxNonceBytes else {
                throw .invalidRequest("nonce must be 1 to \(Self.maxNonceBytes) bytes.")
            }
            nonce = value
        }
        if nonce == nil, client.isPublic, scopes.contains(OpenIDScope.openid.rawValue) {
            throw .invalidRequest("nonce is required of a public client asking for openid.")
        }
    }

    private static func prompts(_ sent: AuthorizationParameters.Single) throws(AuthorizationError) -> Set<AuthorizationRequest.Prompt> {
        switch sent {
        case .absent: return []
        case .duplicated: throw .invalidRequest("prompt was sent more than once.")
        case .value(let text):
            var prompts = Set<AuthorizationRequest.Prompt>()
            for name in text.split(separator: " ") {
                guard let prompt = AuthorizationRequest.Prompt(rawValue: String(name)) else {
                    throw .invalidRequest("prompt must be none, login or consent.")
                }
                prompts.insert(prompt)
            }
            guard !prompts.isEmpty else { throw .invalidRequest("prompt must be none, login or consent.") }
            if prompts.contains(.silent), prompts.count > 1 { throw .invalidRequest("prompt=none cannot be combined with another value.") }
            return prompts
        }
    }

    /// Whether the user must type their password again although `authTime`'s sign-in is live:
    /// `prompt=login`, or a sign-in older than `max_age` (0: always).
    func needsFreshLogin(authTime: Date, now: Date = Date()) -> Bool {
        if prompts.contains(.login) { return true }
        guard let maxAge else { return false }
        return maxAge == 0 || now.timeIntervalSince(authTime) > Double(maxAge)
    }
}
