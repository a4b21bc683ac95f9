import Foundation
import Web

/// `GET` and `POST /oauth/userinfo` (OpenID Connect Core §5.3): who the access token's user
/// is, `sub` always (the user's id, lowercase, as introspection and ID tokens name it),
/// `name` and `preferred_username` when the token holds `profile`, exactly as stored, and
/// `email` with `email_verified` when it holds `email` and the account's address is verified
/// (an unverified address is no claim: both are left out). The token's checks are
/// `OpenIDBearerGuard`'s.
struct UserInfoController: RouteCollection {
    let tokens: TokenRepository
    let emails: AccountEmails

    func boot(routes: any RoutesBuilder) throws {
        let guarded = routes.grouped(OpenIDBearerGuard(tokens: tokens))
        guarded.get("oauth", "userinfo", use: userInfo)
        guarded.post("oauth", "userinfo", use: userInfo)
    }

    func userInfo(_ request: Request) async throws -> Response {
        guard let subject = request.auth.get(OpenIDSubject.self) else { throw BearerChallenge.missingToken }
        let withProfile = subject.scopes.contains(OpenIDScope.profile.rawValue)
        let email = subject.scopes.contains(OpenIDScope.email.rawValue) ? try await emails.verifiedAddress(of: subject.userID) : nil
        let claims = UserInfoClaims(
            sub: subject.userID.uuidString.lowercased(), name: withProfile ? subject.name : nil,
            preferredUsername: withProfile ? subject.username : nil, email: email, emailVerified: email.map { _ in true })
        return try Response.json(claims).notStored()
    }

    /// The answer (§5.3.2); nil claims are left out.
    private struct UserInfoClaims: Encodable {
        let sub: String
        let name: String?
        let preferredUsername: String?
        let email: String?
        let emailVerified: Bool?

        private enum CodingKeys: String, CodingKey {
            case sub, name, email
            case preferredUsername = "preferred_username"
            case emailVerified = "email_verified"
        }
    }
}
