/// A second factor a person types: the 6-digit code of the authenticator app, or one of the
/// recovery codes (each works once). Sent as typed: the server reads full-width digits,
/// spaces and dashes, and says clearly what it cannot read.
public enum SecondFactorCode: Sendable, Hashable {
    case totp(String)
    case recoveryCode(String)

    /// The `code` field of the wire's requests.
    var code: String? {
        if case .totp(let code) = self { return code }
        return nil
    }

    /// The `recoveryCode` field of the wire's requests.
    var recoveryCode: String? {
        if case .recoveryCode(let code) = self { return code }
        return nil
    }
}
