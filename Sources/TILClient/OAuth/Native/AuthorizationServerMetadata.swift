import Foundation

/// What a native app needs of the server's metadata (RFC 8414): where to send the browser, and
/// the issuer every answer must name (RFC 9207).
struct AuthorizationServerMetadata: Decodable, Sendable {
    var issuer: String
    var authorizationEndpoint: URL
    var codeChallengeMethodsSupported: [String]?
    var authorizationResponseIssParameterSupported: Bool?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }

    static let path = "/.well-known/oauth-authorization-server"

    /// Throws unless this is the metadata of `server`: its issuer is the URL the client was given
    /// (RFC 8414 §3.3: anything else may be an impersonation), it takes S256, and its
    /// authorization endpoint is an http(s) URL.
    func check(for server: String) throws {
        guard issuer == server else {
            throw TILError.invalidResponse(
                "The server's metadata names the issuer \(issuer), not \(server) (RFC 8414 §3.3); use the issuer's URL as the server.")
        }
        if let methods = codeChallengeMethodsSupported, !methods.contains(ProofKey.method) {
            throw TILError.invalidResponse("The server does not take PKCE with S256.")
        }
        guard Origin(authorizationEndpoint) != nil else {
            throw TILError.invalidResponse("The authorization endpoint \(authorizationEndpoint.absoluteString) is not an http(s) URL.")
        }
    }
}
