import Web

/// Why a login's second step was refused: a 401 with the Basic challenge, as the first step's
/// refusals are. A type of its own so that the code step page tells the three apart by case,
/// not by reading the reason sentence.
enum SecondStepRefusal: AbortError, Sendable {
    /// The mfaToken is unknown, expired, spent or ended: the login starts again.
    case tokenGone
    /// The code is wrong (or was already used); the mfaToken stays.
    case wrongCode
    /// The code is wrong, and the mfaToken's last try is used up with it.
    case wrongCodeEndedToken

    var status: HTTPStatus { .unauthorized }
    var headers: HTTPHeaders { BasicLogin.challenge }

    var reason: String {
        switch self {
        case .tokenGone: "The mfaToken is no longer valid."
        case .wrongCode: SecondFactors.wrongCode
        case .wrongCodeEndedToken: SecondFactors.wrongCode + " The mfaToken is no longer valid."
        }
    }
}
