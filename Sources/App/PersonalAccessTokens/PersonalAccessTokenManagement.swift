import Foundation
import TILWire
import Web

/// Creating and revoking personal access tokens: the steps `/api/users/me/tokens` and the
/// account page's forms share, checked, answered and audited the same way whichever asked.
/// `sessionID` is the caller's login (a bearer token's session, or the browser's).
struct PersonalAccessTokenManagement: Sendable {
    let tokens: PersonalAccessTokenRepository
    /// `PAT_MAX_TTL`.
    let maxLifetime: Duration
    /// Where the notice's link to the account page points.
    let issuer: ServedIssuer
    let audit: AuditLog

    static let tooMany = Abort(
        .conflict,
        reason: "You have \(PersonalAccessTokenRepository.maxLivePerUser) live personal access tokens, the most one account may hold: revoke one first.")
    static let thirdParty = Abort(
        .forbidden,
        reason: "Personal access tokens are made from a login of TIL's own (the API login, til, or the account page), not by an application.")
    static let gone = Abort(.notFound, reason: "No live personal access token of yours has that id.")

    /// A new token for `user` as `request` describes it, made by their login `sessionID`, which
    /// holds `holderScopes`: shown once, audited as `pat.created` (without its value), its notice
    /// queued to the user's verified email in the same transaction. Throws
    /// the draft's 400s, `tooMany` (409), `thirdParty` (403), or 401 when the login has ended.
    func create(
        _ request: PersonalAccessTokenRequest, for user: User, sessionID: UUID, holderScopes: [Scope], _ httpRequest: Request
    ) async throws -> NewPersonalAccessToken {
        let draft = try PersonalAccessTokenDraft(request, holderScopes: holderScopes, maxLifetime: maxLifetime)
        let (username, accountPage) = (user.username, issuer.current.endpoint(AccountPageController.path))
        let notice = { @Sendable (token: NewPersonalAccessToken, recipient: String) in
            PersonalAccessTokenMail.created(token, for: username, to: recipient, accountPage: accountPage)
        }
        switch try await tokens.create(draft, for: user.id, by: sessionID, notice: notice) {
        case .created(let token):
            audit.record(.personalAccessTokenCreated, httpRequest, userID: user.id, sessionID: token.id)
            return token
        case .tooMany: throw Self.tooMany
        case .thirdParty: throw Self.thirdParty
        case .creatorEnded: throw BearerChallenge.invalidToken(BearerChallenge.unknownOrRevoked)
        }
    }

    /// Revokes `user`'s live token `id`, audited as `pat.revoked`; `gone` (404) when there is none.
    func revoke(_ id: UUID, of user: User, _ request: Request) async throws {
        guard try await tokens.revoke(id, of: user.id) else { throw Self.gone }
        audit.record(.personalAccessTokenRevoked, request, userID: user.id, sessionID: id)
    }
}
