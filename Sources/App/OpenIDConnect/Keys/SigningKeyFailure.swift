import JOSE

/// Why the signing keys could not be read or added: each an operator's problem, said so that
/// they know what to do. Thrown at start-up (`til-server serve` exits 78 with the message).
enum SigningKeyFailure: Error, CustomStringConvertible {
    /// `SECRET_KEY` is not set where keys must be opened or sealed.
    case noSecretKey
    /// A stored key does not open with this `SECRET_KEY`.
    case wrongSecretKey(kid: String)
    /// A row that is not what TIL writes (edited by hand).
    case unreadableRow(String)
    /// No stored key of the algorithm is active yet (all were added to start later).
    case noActiveKey(JWSAlgorithm)

    var description: String {
        switch self {
        case .noSecretKey:
            "SECRET_KEY is not set: it seals the OpenID Connect signing keys in the database."
        case .wrongSecretKey(let kid):
            "the signing key \(kid) in the database does not open with this SECRET_KEY: set the SECRET_KEY it was sealed with "
                + "(every process sharing the database needs the same one). If that key is lost, delete the rows of signing_keys "
                + "and start again: new keys are generated, and tokens signed with the old ones no longer verify."
        case .noActiveKey(let algorithm):
            "no \(algorithm.rawValue) signing key is active yet: `til-server keys rotate --algorithm \(algorithm.rawValue) --activate` adds one."
        case .unreadableRow(let kid):
            "the signing_keys row \(kid) is not one TIL wrote (unknown alg, or a public_jwk or sealed key it cannot read)."
        }
    }
}
