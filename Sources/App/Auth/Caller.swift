import Crypt
import Foundation
import Postgres
import Synchronization
import Web

/// The bearer of a token not yet checked, on a route of `BearerAuth.guardedWrite`: the handler
/// hands its write to `write(_:)`, which checks the token in the same statement (one round
/// trip, `TokenRepository.checkedWrite`). `WriteGuard` makes sure the token is checked before
/// any answer leaves, even when the handler never reaches its write.
struct Caller: Authenticatable {
    let token: BearerToken
    /// The scope the route needs.
    let scope: Scope
    let tokens: TokenRepository
    /// The request's client address: a personal access token's use records it.
    let address: String
    private let checked = CheckedUser()

    init(token: BearerToken, scope: Scope, tokens: TokenRepository, address: String) {
        self.token = token
        self.scope = scope
        self.tokens = tokens
        self.address = address
    }

    /// Runs `write` as the token's holder (see `TokenRepository.checkedWrite` for how it reads
    /// the caller): the row it returned, or nil when it matched nothing. A token that fails the
    /// check is answered as `BearerAuthenticator` and `ScopeGuard` answer it (401, 403).
    func write(_ write: PostgresQuery) async throws -> PostgresRow? {
        let touch = SessionTouch(personalFrom: PersonalAccessToken.isShaped(token.value) ? address : nil)
        switch try await tokens.checkedWrite(write, tokenDigest: SHA256.hex(of: token.value), scope: scope, touch: touch) {
        case .wrote(let row, let userID):
            checked.record(.success(userID))
            return row
        case .matchedNothing(let userID):
            checked.record(.success(userID))
            return nil
        case .refused:
            try await verify()
            // Valid with the scope a moment later: a token cannot come back to life, so the
            // check saw a session row that was being replaced (a refresh); refuse as revoked.
            throw BearerChallenge.invalidToken(BearerChallenge.unknownOrRevoked)
        }
    }

    /// The user the token belongs to: checked by a write or by `verify()` first.
    var userID: UUID {
        get async throws {
            try await verify()
            guard case .success(let id)? = checked.verdict else { throw BearerChallenge.missingToken }
            guard let id else { throw BearerChallenge.noUser }
            return id
        }
    }

    /// Checks the token unless it was checked already (by a write): the 401 or 403 it
    /// deserves, if any. For error paths (a handler that failed before its write) and as a backstop.
    func verify() async throws {
        if let verdict = checked.verdict { return try verdict.map { _ in }.get() }
        let check = try await tokens.authenticate(token.value, from: address)
        if let refusal = BearerChallenge.refusal(of: check, needing: scope) {
            checked.record(.failure(refusal))
            throw refusal
        }
        if case .valid(let identity) = check { checked.record(.success(identity.user.id)) }
        if case .clientOnly = check { checked.record(.success(nil)) }
    }
}

/// The verdict on one request's token, once there is one: its user, or the answer refusing
/// it. Shared by the copies of the request that middleware and handler hold.
private final class CheckedUser: Sendable {
    private let state = Mutex<Result<UUID?, Abort>?>(nil)

    /// The user (nil for a client's own token), or the refusal.
    var verdict: Result<UUID?, Abort>? { state.withLock { $0 } }

    func record(_ verdict: Result<UUID?, Abort>) {
        state.withLock { $0 = verdict }
    }
}
