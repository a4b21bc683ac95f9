import Web

/// The `WWW-Authenticate` challenges of RFC 6750 §3, and the errors that carry them.
enum BearerChallenge {
    /// No credential at all: name the scheme and realm, nothing else (§3.1).
    static let plain = #"Bearer realm="TIL""#

    static let unknownOrRevoked = "The access token is unknown or revoked."

    /// A bearer credential that cannot be a token (`BearerToken`: empty or too long).
    static var malformedToken: Abort { invalidToken("The access token is malformed.") }

    /// The token is unknown, expired or revoked: 401 with `error="invalid_token"`.
    static func invalidToken(_ description: String) -> Abort {
        Abort(.unauthorized, reason: description, headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="invalid_token", error_description="\#(description)""#,
        ])
    }

    /// A valid token without the scope the route needs: 403 naming it.
    static func insufficientScope(_ scope: Scope) -> Abort {
        Abort(.forbidden, reason: "This token lacks the '\(scope.rawValue)' scope.", headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="insufficient_scope", scope="\#(scope.rawValue)""#,
        ])
    }

    /// A client's own token (`client_credentials`) on a route that acts for a user.
    static var noUser: Abort {
        Abort(.forbidden, reason: "This token belongs to an OAuth client, not a user; this route needs a user's token.", headers: [
            "WWW-Authenticate": #"Bearer realm="TIL", error="insufficient_scope", error_description="The token has no user.""#,
        ])
    }

    /// A guarded route reached without any bearer token.
    static let missingToken = Abort(
        .unauthorized, reason: "A valid bearer token is required.", headers: ["WWW-Authenticate": plain])

    /// The answer to a token `check` on a route that needs `scope` (nil: any valid token), or
    /// nil when the token may pass.
    static func refusal(of check: TokenRepository.Check, needing scope: Scope?) -> Abort? {
        switch check {
        case .valid(let identity):
            guard let scope, !identity.scopes.contains(scope) else { return nil }
            return insufficientScope(scope)
        case .clientOnly(let identity):
            guard let scope, identity.scopes.contains(scope), scope == .categoriesWrite else { return noUser }
            return nil
        case .otherAudience: return invalidToken("The access token is for another resource, not TIL's API.")
        case .expired: return invalidToken("The access token expired.")
        case .revoked, .unknown: return invalidToken(unknownOrRevoked)
        }
    }
}
