import Foundation
import Web

/// Lets a request through only with an access token holding `openid` (userinfo's): its user
/// and the token's scopes logged in as `OpenIDSubject`. The token is looked up as every bearer
/// token is (`TokenRepository.authenticate`: one statement, digest compared in constant time,
/// a token of another audience refused); only the scope check is OpenID Connect's, since
/// `openid` is no scope of TIL's API. The token only in the `Authorization` header (RFC 6750
/// §2.1): one in the query or a form body is refused. Errors are RFC 6750 §3's: 401
/// `invalid_token`, 403 `insufficient_scope`, each with its `WWW-Authenticate`.
struct OpenIDBearerGuard: AccessGuard {
    let tokens: TokenRepository

    var access: RouteAccess { .authenticated(scheme: "bearer", scopes: [OpenIDScope.openid.rawValue]) }

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        if !request.query.all("access_token").isEmpty || !(request.form?.all("access_token").isEmpty ?? true) {
            throw Self.tokenOutsideTheHeader
        }
        guard let sent = request.headers.bearerCredential else { throw BearerChallenge.missingToken }
        guard let token = BearerToken(sent) else { throw BearerChallenge.malformedToken }
        let identity: BearerIdentity
        switch try await tokens.authenticate(token.value, from: request.clientAddress) {
        case .valid(let valid): identity = valid
        // A client's own token has no user for userinfo to describe: to userinfo it is no token.
        case .clientOnly: throw BearerChallenge.invalidToken(BearerChallenge.unknownOrRevoked)
        case let check: throw BearerChallenge.refusal(of: check, needing: nil) ?? BearerChallenge.invalidToken(BearerChallenge.unknownOrRevoked)
        }
        guard identity.scopeNames.contains(OpenIDScope.openid.rawValue) else {
            throw BearerChallenge.insufficientScope(Scope(rawValue: "openid"))
        }
        var request = request
        request.auth.login(OpenIDSubject(
            userID: identity.user.id, name: identity.user.name, username: identity.user.username, scopes: identity.scopeNames))
        return try await next.respond(to: request)
    }

    /// RFC 6750 §3.1 `invalid_request`: the token was sent another way than the header.
    static let tokenOutsideTheHeader = Abort(
        .badRequest, reason: "Send the access token in the Authorization header only.", headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="invalid_request", error_description="Send the access token in the Authorization header only.""#,
        ])
}

/// The user an `openid` token speaks for, and what the token holds.
struct OpenIDSubject: Authenticatable {
    let userID: UUID
    let name: String
    let username: String
    let scopes: [String]
}
