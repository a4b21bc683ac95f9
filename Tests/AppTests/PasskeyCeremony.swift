import AppTesting
import Crypt
import Foundation
import TILWire
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// A browser's part of the passkey ceremonies, over a `TestClient`: ask for options, let a
/// `SoftwareAuthenticator` answer them, send the answer. The authenticator is the tests'
/// (WebAuthnTesting), its key made by OpenSSL, tamperable part by part.
struct PasskeyCeremony {
    let client: TestClient
    /// What the app in process answers as: a loopback-IP issuer's defaults.
    static let rpID = "localhost"
    static let origin = "http://localhost:8080"

    static func authenticator(_ algorithm: COSEAlgorithm = .es256, backupEligible: Bool = false, countsSignatures: Bool = true) throws -> SoftwareAuthenticator {
        try SoftwareAuthenticator(
            algorithm: algorithm, rpID: rpID, origin: origin, countsSignatures: countsSignatures, backupEligible: backupEligible,
            backedUp: false)
    }

    /// A new user `username` (password "password") with a registered ES256 passkey, and a
    /// token of theirs with `account`.
    static func holder(_ username: String, on app: TestApp) async throws -> (token: String, authenticator: SoftwareAuthenticator) {
        _ = try await User.create(username: username, on: app)
        let token = try await app.client.session(username, scope: "account").value
        var authenticator = try authenticator()
        try await PasskeyCeremony(client: app.client).registered(&authenticator, token: token)
        return (token, authenticator)
    }

    /// The registration options for the bearer of `token`: the challenge and the user handle.
    func creationOptions(_ token: String) async throws -> (challenge: [UInt8], userID: [UInt8]) {
        let response = try await client.send(.post, "/api/users/me/passkeys/options", auth: .bearer(token))
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        let options = try response.decode(PasskeyOptionsTests.Creation.self)
        return (try XCTUnwrap(Base64URL.decode(options.challenge)), try XCTUnwrap(Base64URL.decode(options.user.id)))
    }

    /// `POST /api/users/me/passkeys {"name", "credential"}` with `credential` as the authenticator wrote it.
    func sendRegistration(_ credential: Data, name: String, token: String) async throws -> TestResponse {
        let body = Data(#"{"name":"#.utf8) + (try JSONEncoder().encode(name)) + Data(#","credential":"#.utf8) + credential + Data("}".utf8)
        return try await client.send(
            .post, "/api/users/me/passkeys", headers: ["Content-Type": "application/json"], body: Array(body), auth: .bearer(token))
    }

    /// Registers `authenticator`'s credential for the bearer of `token`.
    func register(
        _ authenticator: inout SoftwareAuthenticator, token: String, name: String = "Test key", attestation: AttestationStyle = .none,
        tampering: Tampering = Tampering()
    ) async throws -> TestResponse {
        let options = try await creationOptions(token)
        let credential = try authenticator.register(
            challenge: options.challenge, userID: options.userID, attestation: attestation, tampering: tampering)
        return try await sendRegistration(credential, name: name, token: token)
    }

    /// Registers and checks the 201, for tests about what follows.
    @discardableResult
    func registered(
        _ authenticator: inout SoftwareAuthenticator, token: String, name: String = "Test key",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> PasskeySummary {
        let response = try await register(&authenticator, token: token, name: name)
        XCTAssertEqual(response.status.code, 201, response.bodyString, file: file, line: line)
        return try response.decode(PasskeySummary.self)
    }

    /// A login challenge, for `username` or none.
    func loginChallenge(username: String? = nil) async throws -> [UInt8] {
        let response = try await client.send(
            .post, "/api/users/login/passkey/options", json: username.map { ["username": $0] } ?? [:])
        XCTAssertEqual(response.status.code, 200, response.bodyString)
        return try XCTUnwrap(Base64URL.decode(try response.decode(PasskeyOptionsTests.Request.self).challenge))
    }

    /// An assertion of `authenticator` over a fresh login challenge.
    func assertion(
        _ authenticator: inout SoftwareAuthenticator, username: String? = nil, tampering: Tampering = Tampering()
    ) async throws -> Data {
        try authenticator.assert(challenge: try await loginChallenge(username: username), tampering: tampering)
    }

    /// `POST /api/users/login/passkey[?scope=…]` with an assertion as the authenticator wrote it.
    func sendLogin(_ assertion: Data, scope: String? = nil) async throws -> TestResponse {
        let path = "/api/users/login/passkey" + (scope.map { "?scope=" + $0.replacingOccurrences(of: " ", with: "%20") } ?? "")
        return try await client.send(.post, path, headers: ["Content-Type": "application/json"], body: Array(assertion))
    }

    /// Logs in with `authenticator` (options, assertion, login).
    func logIn(
        _ authenticator: inout SoftwareAuthenticator, username: String? = nil, scope: String? = nil, tampering: Tampering = Tampering()
    ) async throws -> TestResponse {
        try await sendLogin(try await assertion(&authenticator, username: username, tampering: tampering), scope: scope)
    }
}

/// Asserts a refusal: `status`, TIL's JSON error, its reason containing `fragment`.
func assertRefused(
    _ response: TestResponse, _ status: Int, mentioning fragment: String, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(response.status.code, status, "\(message): \(response.bodyString)", file: file, line: line)
    let reason = (try? response.decode(ErrorAnswer.self))?.reason ?? ""
    XCTAssertTrue(reason.contains(fragment), "\(message): '\(fragment)' missing from \(response.bodyString)", file: file, line: line)
}
