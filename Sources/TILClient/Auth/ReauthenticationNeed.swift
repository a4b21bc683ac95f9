/// What a sensitive change asks before it goes through (RFC 9470 step-up): the session's
/// sign-in is older than `maxAge` seconds, so the person proves who they are again — the
/// password, and when `methods` is not empty (TOTP is on) a code or a recovery code too.
public struct ReauthenticationNeed: Sendable, Hashable, CustomStringConvertible {
    /// The server's `REAUTH_WINDOW`: how recent the sign-in must be.
    public let maxAge: Int
    /// The second factors the account takes besides the password (`totp`, `recovery_code`,
    /// `passkey`); empty when the password alone is asked, or not yet known.
    public let methods: [String]

    public init(maxAge: Int, methods: [String] = []) {
        (self.maxAge, self.methods) = (maxAge, methods)
    }

    /// Whether a code (or a recovery code) must come with the password.
    public var needsSecondFactor: Bool { !methods.isEmpty }

    public var description: String {
        let what = needsSecondFactor ? "your password and a code" : "your password again"
        guard maxAge > 0 else { return "this change needs a recent sign-in: \(what)" }
        let age = maxAge % 60 == 0 ? "\(maxAge / 60) minutes" : "\(maxAge) seconds"
        return "this change needs a recent sign-in: \(what) (signed in more than \(age) ago)"
    }
}

/// What answers a `ReauthenticationNeed`: the password, and a code when one is needed. Asked
/// for the second factor after a password was given, the password may be left empty: the
/// one given first is sent again.
public struct ReauthenticationAnswer: Sendable {
    public var password: String
    public var proof: SecondFactorCode?

    public init(password: String, proof: SecondFactorCode? = nil) {
        (self.password, self.proof) = (password, proof)
    }
}

extension APIClient {
    /// Asked when a request meets the step-up challenge (`Configuration.reauthenticate`): the
    /// answer, or nil to give up (the request then fails with `TILError.reauthenticationRequired`).
    public typealias Reauthenticator = @Sendable (ReauthenticationNeed) async throws -> ReauthenticationAnswer?
}
