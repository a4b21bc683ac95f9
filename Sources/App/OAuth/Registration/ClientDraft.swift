import Foundation
import JOSE
import Web

/// A client about to be registered: `ClientMetadata` checked against every rule of issue 18's
/// "Clients", the same for `POST /oauth/register` and `til-server clients add`. Each refusal is
/// an RFC 7591 §3.2.2 error naming the field.
struct ClientDraft: Sendable, Equatable {
    let name: String?
    let authMethod: OAuthClient.AuthMethod
    let redirectURIs: [String]
    let postLogoutRedirectURIs: [String]
    let grantTypes: [OAuthClient.GrantType]
    let scope: [String]
    let trusted: Bool
    let idTokenAlgorithm: JWSAlgorithm

    /// The longest `client_name`, in characters (it is shown on the consent page).
    static let maxNameLength = 100

    /// Who registers decides the defaults: `open` registration makes public clients only
    /// (an omitted method means `none`); an operator's `trusted` client may hold `account`.
    init(_ metadata: ClientMetadata, open: Bool, trusted: Bool, scopes: OAuthScopeCatalog) throws(OAuthError) {
        authMethod = try Self.authMethod(metadata.tokenEndpointAuthMethod, open: open)
        let grants = try Self.grantTypes(metadata.grantTypes ?? [OAuthClient.GrantType.authorizationCode.rawValue])
        if authMethod == .none, grants.contains(.clientCredentials) {
            throw .invalidClientMetadata("'client_credentials' is for confidential clients; a public client holds no secret.")
        }
        if grants.contains(.refreshToken), !grants.contains(.authorizationCode), !grants.contains(.deviceCode) {
            throw .invalidClientMetadata(
                "'refresh_token' needs 'authorization_code' or the device grant: refresh tokens come only from a user's approval.")
        }
        grantTypes = grants
        if let responseTypes = metadata.responseTypes, !responseTypes.isEmpty, responseTypes != ["code"] {
            throw .invalidClientMetadata("'response_types' may only be [\"code\"]; the implicit flow does not exist.")
        }
        let publicClient = authMethod == .none
        redirectURIs = try Self.uris(metadata.redirectURIs ?? [], field: "redirect_uris", publicClient: publicClient)
        if grants.contains(.authorizationCode), redirectURIs.isEmpty {
            throw .invalidRedirectURI("'redirect_uris' must name at least one URI for the authorization_code grant.")
        }
        postLogoutRedirectURIs = try Self.uris(
            metadata.postLogoutRedirectURIs ?? [], field: "post_logout_redirect_uris", publicClient: publicClient)
        name = try Self.name(metadata.clientName)
        scope = try Self.scope(metadata.scope, trusted: trusted, catalog: scopes)
        self.trusted = trusted
        idTokenAlgorithm = try Self.idTokenAlgorithm(metadata.idTokenSignedResponseAlg)
    }

    /// OpenID Connect Registration §2: RS256 when omitted (Core §3.1.3.7), ES256 on request;
    /// never `none`, nor anything TIL cannot sign with.
    private static func idTokenAlgorithm(_ sent: String?) throws(OAuthError) -> JWSAlgorithm {
        guard let sent else { return .rs256 }
        guard let algorithm = JWSAlgorithm(rawValue: sent) else {
            throw .invalidClientMetadata("'id_token_signed_response_alg' must be RS256 or ES256.")
        }
        return algorithm
    }

    private static func authMethod(_ sent: String?, open: Bool) throws(OAuthError) -> OAuthClient.AuthMethod {
        guard let sent else { return open ? .none : .clientSecretBasic }
        guard let method = OAuthClient.AuthMethod(rawValue: sent) else {
            throw .invalidClientMetadata("'token_endpoint_auth_method' must be none, client_secret_basic or client_secret_post.")
        }
        guard !open || method == .none else {
            throw .invalidClientMetadata("Open registration makes public clients only: 'token_endpoint_auth_method' must be none.")
        }
        return method
    }

    private static func grantTypes(_ sent: [String]) throws(OAuthError) -> [OAuthClient.GrantType] {
        var grants: [OAuthClient.GrantType] = []
        for name in sent {
            guard let grant = OAuthClient.GrantType(rawValue: name) else {
                throw .invalidClientMetadata(
                    "'grant_types' may hold authorization_code, refresh_token, client_credentials and \(OAuthClient.GrantType.deviceCode.rawValue), not '\(name.prefix(64))'.")
            }
            if !grants.contains(grant) { grants.append(grant) }
        }
        guard !grants.isEmpty else { throw .invalidClientMetadata("'grant_types' must name at least one grant.") }
        return grants
    }

    private static func uris(_ sent: [String], field: String, publicClient: Bool) throws(OAuthError) -> [String] {
        guard sent.count <= RedirectURIRules.maxCount else {
            throw .invalidRedirectURI("'\(field)' may hold at most \(RedirectURIRules.maxCount) URIs.")
        }
        var uris: [String] = []
        for uri in sent {
            if let refusal = RedirectURIRules.refusal(of: uri, publicClient: publicClient) {
                throw field == "redirect_uris" ? .invalidRedirectURI("\(field): \(refusal).") : .invalidClientMetadata("\(field): \(refusal).")
            }
            if !uris.contains(uri) { uris.append(uri) }
        }
        return uris
    }

    private static func name(_ sent: String?) throws(OAuthError) -> String? {
        guard let sent else { return nil }
        let name = sent.precomposedStringWithCanonicalMapping
        let scalars = name.unicodeScalars
        guard !name.isEmpty, name.count <= maxNameLength, name.utf8.count <= 4 * maxNameLength,
            scalars.allSatisfy({ !$0.properties.generalCategory.isControlOrFormat }),
            scalars.first?.properties.isWhitespace == false, scalars.last?.properties.isWhitespace == false
        else {
            throw .invalidClientMetadata(
                "'client_name' must be 1 to \(maxNameLength) characters, without control or invisible formatting characters or white space at either end.")
        }
        return name
    }

    /// The most the client may ever be granted. Unknown names are refused, not dropped;
    /// `account` and `clients:write` only for a trusted (first-party) client. Omitted: TIL's
    /// scopes that any third party may hold, and OpenID Connect's.
    private static func scope(_ sent: String?, trusted: Bool, catalog: OAuthScopeCatalog) throws(OAuthError) -> [String] {
        guard let sent else { return Scope.known.filter { $0 != .account }.map(\.rawValue) + OpenIDScope.names }
        guard sent.utf8.count <= 2048 else { throw .invalidClientMetadata("'scope' is longer than 2048 bytes.") }
        var names: [String] = []
        for name in sent.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            guard catalog.isKnown(name) else { throw .invalidClientMetadata("'scope' names an unknown scope '\(name.prefix(64))'.") }
            if !trusted, [Scope.account.rawValue, Scope.clientsWrite.rawValue].contains(name) {
                throw .invalidClientMetadata("'\(name)' is never granted to a third-party client.")
            }
            if !names.contains(name) { names.append(name) }
        }
        guard !names.isEmpty else { throw .invalidClientMetadata("'scope' names no scope.") }
        return names
    }
}
