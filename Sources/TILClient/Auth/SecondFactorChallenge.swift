import Foundation

/// A password login that is half done: the password was right, but the account has TOTP on,
/// so `POST /api/users/login` answered 401 with `mfaRequired` and issued no token. The
/// challenge's `mfaToken` is single-use and lives five minutes (five wrong codes end it);
/// `APIClient.completeSecondFactor` finishes the login with it.
///
/// The token goes only to the server that issued it, like every credential this client holds,
/// and it is never part of a description, so logging the error does not leak it.
public struct SecondFactorChallenge: Sendable, Hashable, CustomStringConvertible {
    public let mfaToken: String
    /// `totp`, `recovery_code`, `passkey`: whichever the account has, as the server named them.
    public let methods: [String]
    /// Who is logging in: the completed login is kept under this name, as `login` keeps its own.
    public let username: String
    /// The origin that issued the challenge: the only one its token is sent to.
    public let origin: Origin?

    public init(mfaToken: String, methods: [String], username: String, origin: Origin?) {
        (self.mfaToken, self.methods, self.username, self.origin) = (mfaToken, methods, username, origin)
    }

    /// The challenge a login answer carries: a 401 whose body says `mfaRequired`; nil for
    /// anything else (a wrong password is an ordinary 401).
    init?(_ response: APIResponse, username: String) {
        guard response.status == 401, let body = try? JSONDecoder().decode(MFARequired.self, from: response.body),
              body.mfaRequired, !body.mfaToken.isEmpty else { return nil }
        self.init(mfaToken: body.mfaToken, methods: body.methods, username: username, origin: Origin(response.url))
    }

    /// Whether the account takes `method` (`"totp"`, `"recovery_code"`, `"passkey"`).
    public func offers(_ method: String) -> Bool { methods.contains(method) }

    public var description: String {
        "a second factor is required for \(username) (\(methods.joined(separator: ", ")))"
    }
}
