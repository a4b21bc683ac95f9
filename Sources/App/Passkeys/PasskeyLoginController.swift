import Foundation
import Web

/// Logging in with a passkey under `/api/users/login/passkey`: the options (a challenge, and
/// the credentials a named user may answer with) and, with the webauthn library, the
/// assertion that opens a session.
struct PasskeyLoginController: RouteCollection {
    let options: PasskeyLoginOptions

    func boot(routes: any RoutesBuilder) throws {
        let login = routes.grouped("api", "users", "login", "passkey")
        login.post("options", use: requestOptions)
    }

    func requestOptions(_ request: Request) async throws -> Response {
        try await options.options(for: try PasskeyLoginOptions.body(of: request)).encodeResponse(for: request).notStored()
    }
}
