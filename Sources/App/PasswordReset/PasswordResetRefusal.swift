import Web

/// Why a reset's confirm was refused, by case, so the pages tell them apart without reading
/// sentences. No `WWW-Authenticate` on the 401s: they ask for a second factor, which no HTTP
/// authentication scheme names (the login's step answers with Basic, its first step's scheme).
enum PasswordResetRefusal: AbortError, Sendable {
    /// The link's token is unknown, used, replaced by a newer request, or expired: 400.
    case tokenGone
    /// The mfaToken is unknown, expired, spent, or another reset's or a login's: 401. The reset
    /// itself stays: a first confirm again gives a new mfaToken.
    case mfaTokenGone
    /// The code is wrong or was used already: 401; the mfaToken and the reset stay.
    case wrongCode
    /// The reset's fifth wrong code: 401, and the reset and its mfaToken are gone.
    case wrongCodeEndedReset

    var status: HTTPStatus { self == .tokenGone ? .badRequest : .unauthorized }

    var reason: String {
        switch self {
        case .tokenGone: "The reset token is no longer valid (used, replaced by a newer request, or expired): ask for a new link."
        case .mfaTokenGone: "The mfaToken is no longer valid."
        case .wrongCode: SecondFactors.wrongCode
        case .wrongCodeEndedReset: SecondFactors.wrongCode + " Too many wrong codes: the reset token is no longer valid."
        }
    }
}
