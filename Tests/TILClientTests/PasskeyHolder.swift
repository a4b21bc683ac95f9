import Crypt
import Foundation
import TILClient
import WebAuthn
import WebAuthnTesting
import XCTest

/// A passkey registered as a browser would register one, for the client's list, rename and
/// remove: the server's creation options, the tests' software authenticator answering them,
/// and `POST /api/users/me/passkeys` with its RegistrationResponseJSON, all through `client`
/// (logged in with `account`).
enum PasskeyHolder {
    @discardableResult
    static func register(on client: APIClient, name: String) async throws -> PasskeySummary {
        let options = try await client.send(APIRequest("POST", "/api/users/me/passkeys/options", authorization: .bearer(.account)), as: Options.self)
        // A loopback-IP issuer's default origin: localhost on the server's port.
        let origin = "http://\(options.rp.id):\(try XCTUnwrap(client.server.port))"
        var authenticator = try SoftwareAuthenticator(algorithm: .es256, rpID: options.rp.id, origin: origin)
        let credential = try authenticator.register(
            challenge: try XCTUnwrap(Base64URL.decode(options.challenge)), userID: try XCTUnwrap(Base64URL.decode(options.user.id)))
        let body = Data(#"{"name":"#.utf8) + (try JSONEncoder().encode(name)) + Data(#","credential":"#.utf8) + credential + Data("}".utf8)
        let request = APIRequest("POST", "/api/users/me/passkeys", body: body, authorization: .bearer(.account))
        return try await client.send(request, as: PasskeySummary.self)
    }

    /// What of the creation options the authenticator needs.
    private struct Options: Decodable {
        struct RP: Decodable { let id: String }
        struct User: Decodable { let id: String }
        let rp: RP
        let user: User
        let challenge: String
    }
}
