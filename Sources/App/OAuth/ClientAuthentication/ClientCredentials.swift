import Foundation
import Web

/// How a client presented itself at an OAuth endpoint (RFC 6749 §2.3.1): HTTP Basic with the
/// form-encoded id and secret, `client_id` and `client_secret` in the body, or only
/// `client_id` (a public client). More than one method at once → `invalid_request`.
struct ClientCredentials: Sendable, Equatable {
    let clientID: String
    let secret: String?
    let method: OAuthClient.AuthMethod

    var usedHeader: Bool { method == .clientSecretBasic }

    /// Reads the credentials of `request`, whose body is `form`.
    init(_ request: Request, form: QueryParameters) throws(OAuthError) {
        let formID = form["client_id"]
        let formSecret = form["client_secret"]
        if let header = request.headers["Authorization"] {
            guard let (id, secret) = Self.basic(header) else {
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
    }

    /// `Basic base64(urlencoded(id):urlencoded(secret))`.
    private static func basic(_ header: String) -> (String, String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", parts[1].utf8.count <= 1024,
            let data = Data(base64Encoded: String(parts[1])), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        let id = text[..<colon].removingPercentEncoding ?? ""
        let secret = text[text.index(after: colon)...].removingPercentEncoding ?? ""
        return id.isEmpty ? nil : (id, secret)
    }
}
