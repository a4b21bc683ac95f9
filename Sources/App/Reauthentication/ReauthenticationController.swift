import Foundation
import Web
import WebAuthn

/// `POST /api/users/me/reauth`: the answer to RFC 9470's step-up challenge for clients that
/// may hold the password (`Reauthentication`). 204 renews the session's authentication time;
/// the request that was refused is then sent again.
struct ReauthenticationController: RouteCollection {
    let reauthentication: Reauthentication
    let auth: BearerAuth

    /// The longest password read at all; longer is a 400 before anything is counted.
    static let maxPasswordBytes = 1024

    func boot(routes: any RoutesBuilder) throws {
        auth.sessionGuarded(routes.grouped("api", "users", "me"), needing: .account).post("reauth", use: reauthenticate)
    }

    func reauthenticate(_ request: Request) async throws -> HTTPStatus {
        let identity = try request.auth.require(BearerIdentity.self)
        guard Reauthentication.mayReauthenticate(identity) else { throw Reauthentication.thirdPartyClient }
        let proof = try Self.proof(try request.content.decode(Body.self))
        try await reauthentication.reauthenticate(identity, with: proof, request)
        return .noContent
    }

    /// `{"password", "code"? | "recoveryCode"? | "passkey"?}` or `{"passkey"}`.
    struct Body: Decodable, Sendable {
        let password: String?
        let code: String?
        let recoveryCode: String?
        let passkey: AuthenticationResponse?
    }

    /// What `body` proves, checked for shape only: a 400 naming the field otherwise.
    static func proof(_ body: Body) throws -> Reauthentication.Proof {
        let factor = try SecondFactorInput.proof(code: body.code, recoveryCode: body.recoveryCode)
        if body.passkey != nil, factor != nil {
            throw Abort(.badRequest, reason: "Give one of 'code', 'recoveryCode' and 'passkey', not several.")
        }
        guard let password = body.password else {
            guard let passkey = body.passkey, factor == nil else {  // a code alone proves too little
                throw Abort(.badRequest, reason: "Give 'password' (with 'code' or 'recoveryCode' when two-step sign-in is on), or a 'passkey'.")
            }
            return .passkey(passkey)
        }
        guard !password.isEmpty else { throw Abort(.badRequest, reason: "'password' must not be empty.") }
        guard password.utf8.count <= maxPasswordBytes else {
            throw Abort(.badRequest, reason: "'password' must be at most \(maxPasswordBytes) bytes.")
        }
        return .password(password, factor ?? body.passkey.map(SecondFactorProof.passkey))
    }
}
