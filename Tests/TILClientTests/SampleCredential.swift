import Foundation
import TILClient
import XCTest

extension Credential {
    /// A credential as a login to `server` would store it: tokens of its own, valid until 2030.
    static func sample(scopes: [Scope] = Scope.known, server: URL = URL(string: "http://127.0.0.1:1")!) throws -> Credential {
        let token = Token(
            id: UUID(), value: "access-\(UUID())", user: UserReference(id: UUID()),
            expiresAt: try XCTUnwrap(WireDate.date(from: "2030-01-01T00:00:00Z")), refreshToken: "refresh-\(UUID())",
            refreshExpiresAt: try XCTUnwrap(WireDate.date(from: "2030-02-01T00:00:00Z")), scopes: scopes)
        return Credential(token, origins: [try XCTUnwrap(Origin(server))], serverDate: nil, receivedAt: Date())
    }
}
