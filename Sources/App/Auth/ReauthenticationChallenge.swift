import TILWire
import Web

/// RFC 9470 §3's answer to a session whose last authentication is too old for the change it
/// asks for: 401 with `WWW-Authenticate: Bearer error="insufficient_user_authentication",
/// max_age="…"` and the JSON body `ReauthenticationRequired` (`reauthRequired`, `maxAge`, and
/// for the passkeys script `next`, the fresh sign-in). A client re-authenticates
/// (`POST /api/users/me/reauth`, or the authorization endpoint with `max_age`) and retries.
struct ReauthenticationChallenge: EncodableAbortError, Sendable {
    let maxAge: Int
    /// Where a page sends the browser to sign in again; nil on the API.
    var next: String?

    static let description = "A more recent authentication is required"

    var status: HTTPStatus { .unauthorized }

    var reason: String {
        next == nil
            ? "This change needs a sign-in from the last \(maxAge) seconds: re-authenticate (POST /api/users/me/reauth, or sign in again with max_age=\(maxAge)) and retry."
            : "This change needs a recent sign-in: sign in again, then retry."
    }

    /// The Bearer challenge on the API; none on a page endpoint, which takes no bearer token.
    var headers: HTTPHeaders {
        guard next == nil else { return [:] }
        return [
            "WWW-Authenticate":
                #"Bearer realm="TIL", error="insufficient_user_authentication", error_description="\#(Self.description)", max_age="\#(maxAge)""#,
        ]
    }

    func encode(to encoder: any Encoder) throws {
        try ReauthenticationRequired(reason: reason, maxAge: maxAge, next: next).encode(to: encoder)
    }
}
