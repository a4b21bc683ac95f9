import Foundation
import TILWire
import Web

/// The account page's forms for personal access tokens, behind the browser session and its
/// CSRF token, doing what `/api/users/me/tokens` does through the same
/// `PersonalAccessTokenManagement`: `POST /account/tokens` makes one and answers the page that
/// shows it once; `/account/tokens/:tokenID/revoke` revokes one and answers 303 back to the
/// account page. A browser sign-in is a full login: its tokens may hold any scope a token may.
/// Making one needs a recent sign-in (`AccountPageController.freshSignIn`), as the API's does.
struct AccountTokenForms: RouteCollection {
    let accountPages: AccountPageController
    let management: PersonalAccessTokenManagement

    func boot(routes: any RoutesBuilder) throws {
        let forms = routes.grouped(PageErrorMiddleware()).grouped("account", "tokens")
        forms.post(use: create)
        forms.post(":tokenID", "revoke", use: revoke)
    }

    func create(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await accountPages.signedInForm(request) else { return accountPages.signInFirst(request) }
        if let fresh = accountPages.freshSignIn(session, request) { return fresh }
        let scopes = try fields.every("scope", maxCount: PersonalAccessTokenDraft.maxScopes, maxBytes: 64).map(Scope.init(rawValue:))
        guard let expiresIn = Int(try fields.single("expires_in", maxBytes: 16) ?? "") else {
            throw Abort(.badRequest, reason: "'expiresIn' must be a whole number of seconds.")
        }
        let asked = PersonalAccessTokenRequest(
            name: try fields.single("name", maxBytes: PersonalAccessTokenDraft.maxNameBytes * 4) ?? "", scopes: scopes,
            expiresIn: expiresIn)
        let token = try await management.create(
            asked, for: session.user, sessionID: session.id, holderScopes: PersonalAccessTokenDraft.allowedScopes, request)
        return accountPages.loginPages.sliding(PageResponse(html: NewTokenPage(token: token).html), session).response
    }

    func revoke(_ request: Request) async throws -> Response {
        guard let session = try await accountPages.signedInForm(request)?.session else { return accountPages.signInFirst(request) }
        try await management.revoke(try request.parameters.require("tokenID", as: UUID.self), of: session.user, request)
        return PageResponse.redirect(to: AccountNotice.tokenRevoked.location)
    }
}
