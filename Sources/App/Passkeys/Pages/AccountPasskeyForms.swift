import Foundation
import Web

/// The account page's plain forms for a passkey: rename (`name`) and remove, each posting the
/// session's CSRF token and answering 303 back to the page with a notice. No script needed.
/// Removing one needs a recent sign-in (`AccountPageController.freshSignIn`); renaming does not:
/// a name changes nothing about how the account signs in.
struct AccountPasskeyForms: RouteCollection {
    let accountPages: AccountPageController
    let passkeys: PasskeyRepository
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        let forms = routes.grouped(PageErrorMiddleware()).grouped("account", "passkeys", ":passkeyID")
        forms.post("rename", use: rename)
        forms.post("remove", use: remove)
    }

    func rename(_ request: Request) async throws -> Response {
        guard let (fields, session) = try await accountPages.signedInForm(request) else { return accountPages.signInFirst(request) }
        let id = try request.parameters.require("passkeyID", as: UUID.self)
        let name = try PasskeyName.validated(try fields.single("name", maxBytes: PasskeyName.maxBytes * 4) ?? "")
        guard try await passkeys.rename(id, of: session.user.id, to: name) != nil else { throw Self.gone }
        audit.record(.passkeyRenamed, request, userID: session.user.id, sessionID: session.id)
        return PageResponse.redirect(to: AccountNotice.passkeyRenamed.location)
    }

    func remove(_ request: Request) async throws -> Response {
        guard let session = try await accountPages.signedInForm(request)?.session else { return accountPages.signInFirst(request) }
        if let fresh = accountPages.freshSignIn(session, request) { return fresh }
        let id = try request.parameters.require("passkeyID", as: UUID.self)
        guard try await passkeys.remove(id, of: session.user.id) else { throw Self.gone }
        audit.record(.passkeyRemoved, request, userID: session.user.id, sessionID: session.id)
        return PageResponse.redirect(to: AccountNotice.passkeyRemoved.location)
    }

    static let gone = Abort(.notFound, reason: "That passkey has already been removed, or is not yours.")
}
