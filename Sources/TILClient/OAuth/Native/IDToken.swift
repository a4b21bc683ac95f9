public import Foundation

/// An OpenID Connect ID token (Core §2) as a native app validates it (§3.1.3.7).
///
/// No signature is checked, by design: TILClient depends on Foundation alone, and the token
/// came straight from the token endpoint, over TLS, in answer to this client's own code
/// exchange — which §3.1.3.7 step 6 accepts in place of checking the signature ("the TLS server
/// validation MAY be used to validate the issuer in place of checking the token signature").
/// So build on one only as it arrives from `finishBrowserSignIn`, never on one from elsewhere.
/// What is checked: `iss` is the issuer (step 2), `aud` is this client and no one else and
/// `azp`, when present, is this client too (steps 3–5), `exp` has not passed (step 9, with a
/// minute's leeway for clocks), `iat` is there, and `nonce` is the sign-in's (step 11).
public struct IDToken: Sendable, Equatable {
    public let issuer: String
    /// The user's stable id at the issuer.
    public let subject: String
    public let audience: [String]
    public let expiresAt: Date
    public let issuedAt: Date
    public let nonce: String?
    public let authTime: Date?
    /// With the `profile` scope.
    public let name: String?
    public let preferredUsername: String?

    /// The longest token read: TIL's are well under 2 KB.
    static let maxLength = 16_384

    /// The claims of `jwt` once validated for `clientID`'s sign-in at `issuer` that sent `nonce`;
    /// throws `TILError.signInFailed` (`invalid_id_token`) saying what is wrong.
    public init(validating jwt: String, issuer: String, clientID: String, nonce: String, now: Date = Date()) throws {
        let claims = try Self.claims(of: jwt)
        guard let iss = claims["iss"] as? String, iss == issuer else { throw Self.invalid("its iss is not \(issuer)") }
        guard let sub = claims["sub"] as? String, !sub.isEmpty else { throw Self.invalid("it names no subject (sub)") }
        let audience = (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [Any])?.compactMap { $0 as? String } ?? []
        guard audience == [clientID] || (audience.contains(clientID) && Set(audience).count == 1) else {
            throw Self.invalid("its audience is \(audience), not \(clientID) alone")
        }
        if let azp = claims["azp"], azp as? String != clientID { throw Self.invalid("it was issued to another party (azp)") }
        guard let exp = Self.date(claims["exp"]) else { throw Self.invalid("it has no expiry (exp)") }
        guard now < exp.addingTimeInterval(Self.leeway) else { throw Self.invalid("it expired at \(exp.formatted(.iso8601))") }
        guard let iat = Self.date(claims["iat"]) else { throw Self.invalid("it has no issue time (iat)") }
        guard let sent = claims["nonce"] as? String, AuthorizationResponse.constantTimeEqual(sent, nonce) else {
            throw Self.invalid("its nonce is not this sign-in's: it may be replayed")
        }
        self.issuer = iss
        subject = sub
        self.audience = audience
        expiresAt = exp
        issuedAt = iat
        self.nonce = sent
        authTime = Self.date(claims["auth_time"])
        name = claims["name"] as? String
        preferredUsername = claims["preferred_username"] as? String
    }

    /// Clocks may disagree by this much.
    static let leeway: TimeInterval = 60

    /// The claims set of a JWS in compact form: three base64url parts, a JSON header and a
    /// JSON object in the middle.
    private static func claims(of jwt: String) throws -> [String: Any] {
        guard jwt.utf8.count <= maxLength else { throw invalid("it is longer than \(maxLength) bytes") }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            (try? JSONSerialization.jsonObject(with: header)) is [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
        else { throw invalid("it is not a JWT (header.payload.signature, base64url JSON)") }
        return claims
    }

    /// A NumericDate (seconds since 1970, RFC 7519 §2).
    private static func date(_ value: Any?) -> Date? {
        guard let number = value as? NSNumber, !(value is Bool), number.doubleValue.isFinite else { return nil }
        return Date(timeIntervalSince1970: number.doubleValue)
    }

    private static func invalid(_ reason: String) -> TILError {
        .signInFailed(error: "invalid_id_token", reason: "The id_token is not valid: \(reason).")
    }
}
