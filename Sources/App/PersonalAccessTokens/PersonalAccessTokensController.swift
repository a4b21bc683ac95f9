import Foundation
import TILWire
import Web

/// `/api/users/me/tokens`: the caller's personal access tokens — make one (its value shown
/// once), list them, revoke one. A login's business only (`BearerAuth.sessionGuarded`, with the
/// `account` scope): a personal access token cannot make or revoke tokens. Making one needs a
/// recent authentication (RFC 9470, `RecentAuthentication`): a stolen login token alone cannot
/// turn itself into a year-long one.
struct PersonalAccessTokensController: RouteCollection {
    let management: PersonalAccessTokenManagement
    let auth: BearerAuth
    let recentAuthentication: RecentAuthentication

    func boot(routes: any RoutesBuilder) throws {
        let mine = auth.sessionGuarded(routes.grouped("api", "users", "me", "tokens"), needing: .account)
        mine.post(use: create)
        mine.get(use: list)
        mine.delete(":tokenID", use: revoke)
    }

    /// 201 with the token, which no cache may keep.
    func create(_ request: Request) async throws -> Response {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        let body = try request.content.decode(PersonalAccessTokenRequest.self)
        let token = try await management.create(
            body, for: identity.user, sessionID: identity.sessionID, holderScopes: identity.scopes, request)
        return try ContentResponse(token, status: .created).encodeResponse(for: request).notStored()
    }

    func list(_ request: Request) async throws -> [PersonalAccessToken] {
        try await management.tokens.list(of: try request.auth.require(User.self).id)
    }

    func revoke(_ request: Request) async throws -> HTTPStatus {
        let user = try request.auth.require(User.self)
        try await management.revoke(try request.parameters.require("tokenID", as: UUID.self), of: user, request)
        return .noContent
    }
}
