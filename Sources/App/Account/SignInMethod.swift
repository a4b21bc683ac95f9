/// How a session was signed in, in words, from its `amr` (RFC 8176): what a person checks
/// when a session looks strange ("password only" beside sessions that took a code).
enum SignInMethod {
    static func words(_ amr: [String]?) -> String? {
        guard let amr, !amr.isEmpty else { return nil }
        let set = Set(amr)
        switch (set.contains("pwd"), set.contains("hwk"), set.contains("otp"), set.contains("mfa")) {
        case (true, true, _, _): return "password and passkey"
        case (false, true, _, _): return "passkey"
        case (true, false, true, _): return "password and authenticator code"
        case (true, false, false, true): return "password and recovery code"
        case (true, false, false, false): return "password"
        default: return amr.joined(separator: ", ")
        }
    }
}
