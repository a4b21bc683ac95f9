import Crypt
import Foundation
import TILWire
import Web

/// The caller's passkeys, under `/api/users/me/passkeys` with the `account` scope: the options
/// that start a registration, the list, renaming and removal. Adding and removing one change
/// how the account signs in, so they need a recent authentication (`RecentAuthentication`).
struct PasskeysController: RouteCollection {
    let passkeys: PasskeyRepository
    let registration: PasskeyRegistration
    let relyingParty: ServedRelyingParty
    let auth: BearerAuth
    let audit: AuditLog
    let recentAuthentication: RecentAuthentication

    func boot(routes: any RoutesBuilder) throws {
        let mine = auth.sessionGuarded(routes.grouped("api", "users", "me", "passkeys"), needing: .account)
        mine.post("options", use: creationOptions)
        mine.post(use: register)
        mine.get(use: list)
        mine.patch(":passkeyID", use: rename)
        mine.delete(":passkeyID", use: remove)
    }

    /// The options for `navigator.credentials.create`, with a fresh registration challenge.
    func creationOptions(_ request: Request) async throws -> Response {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        return try await Self.creationOptions(for: identity.user, passkeys: passkeys, relyingParty: relyingParty.current)
            .encodeResponse(for: request).notStored()
    }

    /// The options that register a passkey for `user` (the API's and the account page's).
    static func creationOptions(
        for user: User, passkeys: PasskeyRepository, relyingParty: PasskeyRelyingParty
    ) async throws -> CreationOptions {
        let challenge = WebAuthnChallenges.Fresh()
        let existing = try await passkeys.registrationChallenge(challenge, for: user.id)
        guard existing.count < PasskeyRepository.maxPerUser else { throw tooMany }
        return CreationOptions(
            rp: .init(id: relyingParty.id, name: ServedRelyingParty.name),
            user: .init(id: Base64URL.encode(user.id.handleBytes), name: user.username, displayName: user.name),
            challenge: challenge.encoded, excludeCredentials: existing)
    }

    /// Stores the passkey the response registers: 201 with its summary.
    func register(_ request: Request) async throws -> ContentResponse<PasskeySummary> {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        let body = try request.content.decode(PasskeyRegistration.Body.self)
        let stored = try await registration.register(body, for: identity.user)
        audit.record(.passkeyRegistered, request, userID: identity.user.id, sessionID: identity.sessionID)
        return ContentResponse(stored, status: .created)
    }

    func list(_ request: Request) async throws -> [PasskeySummary] {
        try await passkeys.list(of: try request.auth.require(User.self).id)
    }

    func rename(_ request: Request) async throws -> PasskeySummary {
        let identity = try request.auth.require(BearerIdentity.self)
        let id = try request.parameters.require("passkeyID", as: UUID.self)
        let name = try PasskeyName.validated(try request.content.decode(PasskeyRenameRequest.self).name)
        guard let renamed = try await passkeys.rename(id, of: identity.user.id, to: name) else { throw Self.notFound }
        audit.record(.passkeyRenamed, request, userID: identity.user.id, sessionID: identity.sessionID)
        return renamed
    }

    func remove(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        try await recentAuthentication.require(identity, request)
        let id = try request.parameters.require("passkeyID", as: UUID.self)
        guard try await passkeys.remove(id, of: identity.user.id) else { throw Self.notFound }
        audit.record(.passkeyRemoved, request, userID: identity.user.id, sessionID: identity.sessionID)
        return .noContent
    }

    static let notFound = Abort(.notFound, reason: "No passkey with that id.")
    static let tooMany = Abort(
        .conflict, reason: "You have \(PasskeyRepository.maxPerUser) passkeys, the most one account may hold: remove one first.")
}
