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
    private let checked = CheckedUser()

    init(token: BearerToken, scope: Scope, tokens: TokenRepository) {
        self.token = token
        self.scope = scope
        self.tokens = tokens
    }

    /// Runs `write` as the token's holder (see `TokenRepository.checkedWrite` for how it reads
    /// the caller): the row it returned, or nil when it matched nothing. A token that fails the
    /// check is answered as `BearerAuthenticator` and `ScopeGuard` answer it (401, 403).
    func write(_ write: PostgresQuery) async throws -> PostgresRow? {
        switch try await tokens.checkedWrite(write, tokenDigest: SHA256.hex(of: token.value), scope: scope) {
        case .wrote(let row, let userID):
            checked.passed(userID)
            return row
        case .matchedNothing(let userID):
            checked.passed(userID)
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
            guard let id = checked.userID else { throw BearerChallenge.missingToken }
            return id
        }
    }

    /// Checks the token unless a write already has: the 401 or 403 it deserves, if any. For
    /// error paths (a handler that failed before its write) and as a backstop.
    func verify() async throws {
        guard checked.userID == nil else { return }
        let check = try await tokens.authenticate(token.value)
        if let refusal = BearerChallenge.refusal(of: check, needing: scope) { throw refusal }
        if case .valid(let identity) = check { checked.passed(identity.user.id) }
    }
}

/// Whose token passed its check, once it has: for one request, shared by the copies of it
/// that middleware and handler hold.
private final class CheckedUser: Sendable {
    private let id = Mutex<UUID?>(nil)

    var userID: UUID? { id.withLock { $0 } }

    func passed(_ userID: UUID) {
        id.withLock { $0 = userID }
    }
}
