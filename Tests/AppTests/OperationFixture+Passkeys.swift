import Crypt
import Foundation
import HTTP1
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

extension OperationFixture {
    /// The body fields of the passkey ceremonies, which only a live challenge makes valid: a
    /// fresh credential registered for the bearer (when its token may ask for options), or an
    /// assertion of the fixture's authenticator (the whole body of a passkey login).
    func passkeyFields(of operation: DocumentedOperation, to client: TestClient, bearer token: String?) async throws -> [String: JSONValue] {
        let ceremony = PasskeyCeremony(client: client)
        switch "\(operation.method.rawValue) \(operation.path)" {
        case "POST /api/users/me/passkeys":
            var fresh = try PasskeyCeremony.authenticator()
            guard let token else { return ["credential": .object([:])] }  // refused before the body is read
            let options = try await client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(token))
            guard options.status.code == 200 else { return ["credential": .object([:])] }  // refused before the body is read
            let creation = try options.decode(PasskeyOptionsTests.Creation.self)
            let credential = try fresh.register(
                challenge: try XCTUnwrap(Base64URL.decode(creation.challenge)), userID: try XCTUnwrap(Base64URL.decode(creation.user.id)))
            return ["credential": try JSONValue.parse(Array(credential))]
        case "POST /api/users/login/passkey":
            var authenticator = self.authenticator
            guard case .object(let fields) = try JSONValue.parse(Array(try await ceremony.assertion(&authenticator, tampering: Tampering { $0.userHandle = user.id.handleBytes }))) else { return [:] }
            return fields
        default:
            return [:]
        }
    }
}
