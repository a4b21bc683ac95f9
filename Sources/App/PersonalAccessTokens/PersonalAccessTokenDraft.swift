import Web

/// What a new personal access token is to be, every rule checked: each failure a 400 that
/// names its field, so a script's author sees what to fix.
///
/// - `name`: a `Label` of 1 to 100 characters. Names are labels, not keys: two tokens may share
///   one (the id is what revokes a token, and the list shows when each was made).
/// - `scopes`: up to `maxScopes` of TIL's scopes, each held by the login that creates the
///   token (a token is never more than its maker), never `account` or `clients:write` (the
///   account's own management needs a login; registering clients is an administrator's). None
///   at all is a token that can only say whose it is (`GET /api/users/me`).
/// - `expiresIn`: whole seconds, from 1 to `PAT_MAX_TTL`; required (a token that never
///   expires is the one found in an old CI log years later).
struct PersonalAccessTokenDraft: Sendable, Equatable {
    let name: String
    /// In canonical order, without duplicates.
    let scopes: [Scope]
    /// Seconds from its creation to its expiry.
    let lifetime: Int

    static let maxNameCharacters = 100
    static let maxNameBytes = 400
    static let maxScopes = 16
    /// The scopes no personal access token may hold.
    static let forbiddenScopes: [Scope] = [.account, .clientsWrite]
    /// The scopes one may hold: TIL's own, but for the forbidden ones.
    static let allowedScopes = Scope.grantable.filter { !forbiddenScopes.contains($0) }

    /// The draft `request` describes, made by a login holding `holderScopes`, or the 400 that
    /// names its first mistake.
    init(_ request: PersonalAccessTokenRequest, holderScopes: [Scope], maxLifetime: Duration) throws {
        name = try Label.validated(request.name, field: "name", maxCharacters: Self.maxNameCharacters, maxBytes: Self.maxNameBytes)
        scopes = try Self.scopes(request.scopes, holderScopes: holderScopes)
        let longest = Int(maxLifetime.components.seconds)
        guard (1...longest).contains(request.expiresIn) else {
            throw Abort(.badRequest, reason: "'expiresIn' must be a whole number of seconds from 1 to \(longest).")
        }
        lifetime = request.expiresIn
    }

    private static func scopes(_ asked: [Scope], holderScopes: [Scope]) throws -> [Scope] {
        guard asked.count <= maxScopes else { throw refusal("at most \(maxScopes) scopes") }
        for scope in asked {
            let shown = "'\(scope.rawValue.prefix(64))'"
            if forbiddenScopes.contains(scope) {
                throw refusal("a personal access token may not hold \(shown): that needs a login")
            }
            guard allowedScopes.contains(scope) else { throw refusal("unknown scope \(shown); known scopes: \(allowed)") }
            guard holderScopes.contains(scope) else {
                throw refusal("this login does not hold \(shown), so a token it makes may not either")
            }
        }
        return allowedScopes.filter(asked.contains)
    }

    private static var allowed: String { allowedScopes.map(\.rawValue).joined(separator: ", ") }

    private static func refusal(_ detail: String) -> Abort {
        Abort(.badRequest, reason: "'scopes': \(detail).")
    }
}
