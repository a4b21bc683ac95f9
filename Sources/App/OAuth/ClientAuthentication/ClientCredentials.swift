import Crypt
import Web

/// How a client presented itself at an OAuth endpoint (RFC 6749 §2.3.1): HTTP Basic with the
/// form-encoded id and secret, `client_id` and `client_secret` in the body, or only
/// `client_id` (a public client). More than one method at once → `invalid_request`.
struct ClientCredentials: Sendable, Equatable {
    let clientID: String
    let secret: String?
    let method: OAuthClient.AuthMethod
    /// The SHA-256 of `secret`, made once for every check that compares it (nil: no secret,
    /// or an overlong one, which is nobody's).
    let secretDigest: String?

    var usedHeader: Bool { method == .clientSecretBasic }

    /// Reads the credentials of `request`, whose body is `form`.
    init(_ request: Request, form: QueryParameters) throws(OAuthError) {
        let formID = form["client_id"]
        let formSecret = form["client_secret"]
        if request.headers.contains("Authorization") {
            guard let (id, secret) = Self.basic(request) else {
                throw .invalidClient("The Authorization header is not HTTP Basic with a client id and secret.", usedHeader: true)
            }
            guard formSecret == nil else { throw .invalidRequest("Authenticate one way: the Authorization header or client_secret, not both.") }
            guard formID == nil || formID == id else { throw .invalidRequest("client_id differs from the Authorization header's.") }
            self.init(clientID: id, secret: secret, method: .clientSecretBasic)
            return
        }
        guard let formID, !formID.isEmpty else { throw .invalidClient("No client authentication: send client_id.", usedHeader: false) }
        self.init(clientID: formID, secret: formSecret, method: formSecret == nil ? .none : .clientSecretPost)
    }

    private init(clientID: String, secret: String?, method: OAuthClient.AuthMethod) {
        self.clientID = clientID
        self.secret = secret
        self.method = method
        secretDigest = secret.flatMap { $0.utf8.count <= 256 ? SHA256.hex(of: $0) : nil }
    }

    /// `Basic base64(urlencoded(id):urlencoded(secret))`: the headers' own Basic decoding, then
    /// each half percent-decoded (RFC 6749 §2.3.1; a `+` stays a plus, as ids and secrets TIL
    /// issues never hold a space).
    private static func basic(_ request: Request) -> (String, String)? {
        guard let credentials = request.headers.basicAuthorization,
            let id = PercentDecoding.decode(Substring(credentials.username), plusIsSpace: false), !id.isEmpty
        else { return nil }
        return (id, PercentDecoding.decode(Substring(credentials.password), plusIsSpace: false) ?? "")
    }
}
