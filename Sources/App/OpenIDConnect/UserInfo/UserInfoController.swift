import Foundation
import Web

/// `GET` and `POST /oauth/userinfo` (OpenID Connect Core §5.3): who the access token's user
/// is, `sub` always (the user's id, lowercase, as introspection and ID tokens name it) and
/// `name` and `preferred_username` when the token holds `profile`, exactly as stored. The
/// token's checks are `OpenIDBearerGuard`'s.
struct UserInfoController: RouteCollection {
    let tokens: TokenRepository

    func boot(routes: any RoutesBuilder) throws {
        let guarded = routes.grouped(OpenIDBearerGuard(tokens: tokens))
        guarded.get("oauth", "userinfo", use: userInfo)
        guarded.post("oauth", "userinfo", use: userInfo)
    }

    func userInfo(_ request: Request) async throws -> Response {
        guard let subject = request.auth.get(OpenIDSubject.self) else { throw BearerChallenge.missingToken }
        let withProfile = subject.scopes.contains(OpenIDScope.profile.rawValue)
        let claims = UserInfoClaims(
            sub: subject.userID.uuidString.lowercased(), name: withProfile ? subject.name : nil,
            preferredUsername: withProfile ? subject.username : nil)
        return try Response.json(claims).notStored()
    }

    /// The answer (§5.3.2); nil claims are left out.
    private struct UserInfoClaims: Encodable {
        let sub: String
        let name: String?
        let preferredUsername: String?

        private enum CodingKeys: String, CodingKey {
            case sub, name
            case preferredUsername = "preferred_username"
        }
    }
}
