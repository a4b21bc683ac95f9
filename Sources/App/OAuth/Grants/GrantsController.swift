import Web

/// `/api/users/me/grants` (bearer with `account`): the clients the user let in, and taking
/// that back, which also ends the client's tokens for the user.
struct GrantsController: RouteCollection {
    let grants: GrantRepository
    let auth: BearerAuth
    let audit: AuditLog

    func boot(routes: any RoutesBuilder) throws {
        let account = auth.sessionGuarded(routes.grouped("api", "users", "me", "grants"), needing: .account)
        account.get(use: list)
        account.delete(":clientID", use: withdraw)
    }

    func list(_ request: Request) async throws -> [GrantRepository.Grant] {
        try await grants.grants(of: try request.auth.require(BearerIdentity.self).user.id)
    }

    func withdraw(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        let clientID = try request.parameters.require("clientID", as: String.self)
        guard try await grants.withdraw(clientID: clientID, of: identity.user.id) else {
            throw Abort(.notFound, reason: "No grant to that client.")
        }
        audit.record(.grantWithdrawn, request, userID: identity.user.id)
        return .noContent
    }
}
