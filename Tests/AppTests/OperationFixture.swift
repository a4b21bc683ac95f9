import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import WebAuthnTesting
@testable import App

/// What a generic contract test needs to call any documented operation for real: a user of its
/// own (password "password"), an administrator logged in with every scope, who owns an
/// acronym, and a category, and who has a pending TOTP enrolment of a known secret (turned
/// on by `secondFactor(for:on:)` for operations that need a second factor's proof), and an
/// unverified email address with a live verification link.
/// It fills an operation's path and a valid body from the document; a parameter or field it
/// cannot fill stops the test and names itself, so a new operation teaches it one line.
struct OperationFixture {
    static let password = "password"
    let user: User
    let session: LoginAnswer
    let acronym: Acronym
    let category: App.Category
    /// An OAuth client the user gave a grant to.
    let clientID: String
    /// The secret of the user's TOTP enrolment (pending until `secondFactor(for:on:)`).
    let totpSecret: [UInt8]
    /// A passkey of the user's, whose assertions `authenticator` signs.
    let passkeyID: UUID
    let authenticator: SoftwareAuthenticator
    /// A live password reset of the user's (the token its mail would carry), waiting for its
    /// second step (the mfaToken bound to it).
    let passwordReset: (token: String, mfaToken: String)
    /// The token of the link that verifies the user's address.
    let emailToken: String
    /// A personal access token of the user's (its id; made through the API by `session`).
    let tokenID: UUID

    static func make(on app: TestApp) async throws -> OperationFixture {
        let user = try await User.create(on: app)
        try await app.til.db.execute("UPDATE users SET is_admin = true WHERE id = \(user.id)")  // may hold clients:write
        let everyScope = Scope.grantable.map(\.rawValue).joined(separator: " ")
        let clientID = UUID().uuidString
        let authenticator = try PasskeyCeremony.authenticator(countsSignatures: false)  // counter 0: every assertion passes
        try await app.til.db.execute("""
            WITH client AS (
                INSERT INTO oauth_clients (id, name, auth_method, redirect_uris, grant_types, scope)
                VALUES (\(clientID), 'Fixture app', 'none', 'https://app.example/cb', 'authorization_code', 'acronyms:write')
            )
            INSERT INTO oauth_grants (user_id, client_id, scopes) SELECT \(user.id), \(clientID), 'acronyms:write'
            """)
        let totpSecret = TOTPSecret.generate()
        _ = try await TOTPCredentialRepository(db: app.til.db, secretKey: app.til.configuration.secretKey)
            .startEnrolment(of: user.id, secret: totpSecret)
        let email = StringBounds.email(bytes: 32)
        let link = EmailVerificationTokens.issue(for: user.id, email: email, purpose: .verify)
        try await app.til.db.execute("UPDATE users SET email = \(email) WHERE id = \(user.id)")
        try await app.til.db.execute(link.insert)
        let session = try await app.client.session(user.username, password, scope: everyScope)
        return OperationFixture(
            user: user, session: session,
            acronym: try await Acronym.create(user: user, on: app), category: try await App.Category.create(on: app), clientID: clientID,
            totpSecret: totpSecret, passkeyID: try await PasskeyRows.insert(for: user.id, authenticator: authenticator, on: app),
            authenticator: authenticator, passwordReset: try await storePasswordReset(for: user, on: app), emailToken: link.token,
            tokenID: try await PersonalAccessTokenRows.create(by: session.value, on: app).id)
    }

    /// For an operation documented `x-second-factor-proof` (it needs TOTP on and a code): turns
    /// the user's TOTP on and answers the body fields that prove it, a current `code` (and for
    /// the login's second step an `mfaToken`). Nothing for any other operation. Call it after
    /// the user's logins: with TOTP on, a password login stops at the second step.
    func secondFactor(for operation: DocumentedOperation, on app: TestApp) async throws -> [String: JSONValue] {
        guard operation.spec["x-second-factor-proof"] == .bool(true) else { return [:] }
        try await app.til.db.execute("UPDATE totp_credentials SET confirmed_at = now() WHERE user_id = \(user.id)")
        var fields: [String: JSONValue] = ["code": .string(TOTP(secret: totpSecret).code(at: Date()))]
        if operation.access == .public {
            let challenges = MFAChallengeRepository(db: app.til.db, clock: .system)
            fields["mfaToken"] = .string(try await challenges.issue(for: user.id, scopes: [.account]))
        }
        return fields
    }

    /// The fixture's value for a path parameter, or for a body field only it can know.
    private func value(named name: String) -> String? {
        switch name {
        case "acronymID": acronym.id.uuidString
        case "categoryID": category.id.uuidString
        case "userID": user.id.uuidString
        case "sessionID": session.id.uuidString
        case "currentPassword": Self.password
        case "refreshToken": session.refreshToken
        case "clientID": clientID
        case "code": TOTP(secret: totpSecret).code(at: Date())
        case "passkeyID": passkeyID.uuidString
        case "token": emailToken
        case "tokenID": tokenID.uuidString
        default: nil
        }
    }

    /// Where to call `operation`: each `{name}` filled from the fixture, and each required
    /// query parameter given its documented example.
    func target(of operation: DocumentedOperation) throws -> String {
        var path = operation.path
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = String(path[path.index(after: open)..<close])
            guard let value = value(named: name) else { throw unfillable(operation, "path parameter {\(name)}") }
            path.replaceSubrange(open...close, with: value)
        }
        var query: [String] = []
        for parameter in operation.parameters where parameter["in"] == .string("query") && parameter["required"] == .bool(true) {
            let name = parameter["name"]?.string ?? "?"
            guard let example = parameter["example"]?.string ?? parameter["schema"]?["examples"]?.array?.first?.string else {
                throw unfillable(operation, "query parameter \(name)")
            }
            query.append("\(name)=\(example.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? example)")
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// A valid JSON body for `operation` (nil when it takes none), with `overrides` on top:
    /// each required field takes the fixture's value, else a fresh value within its documented
    /// bounds (unique, so a unique field never collides), else its first example.
    func body(
        of operation: DocumentedOperation, in contract: OpenAPIContract, overriding overrides: [String: JSONValue] = [:]
    ) throws -> [String: JSONValue]? {
        guard let schema = contract.requestSchema(of: operation) else { return nil }
        let properties = contract.requestProperties(of: operation)
        var body: [String: JSONValue] = [:]
        // The required fields, and those of the first choice of an `anyOf` (`password` or `passkey`).
        let required = (schema["required"]?.array ?? []) + (schema["anyOf"]?.array?.first?["required"]?.array ?? [])
        for case .string(let name) in required where overrides[name] == nil {
            if let value = value(named: name) {
                body[name] = .string(value)
            } else if let bounds = properties[name].flatMap(StringBounds.init) {
                body[name] = .string(bounds.freshValue)
            } else if let example = properties[name]?["examples"]?.array?.first {
                body[name] = example
            } else {
                throw unfillable(operation, "body field '\(name)'")
            }
        }
        return body.merging(overrides) { _, override in override }
    }

    /// Sends `operation` with a valid path and body (see `body`), and `token` as its bearer.
    func send(
        _ operation: DocumentedOperation, in contract: OpenAPIContract, to client: TestClient, bearer token: String?,
        overriding overrides: [String: JSONValue] = [:]
    ) async throws -> TestResponse {
        let target = try target(of: operation)
        let auth = token.map(TestAuth.bearer)
        let ceremony = try await passkeyFields(of: operation, to: client, bearer: token).merging(passwordResetFields(of: operation)) { $1 }
        if let body = try body(of: operation, in: contract, overriding: ceremony.merging(overrides) { $1 }) {
            return try await client.send(operation.method, target, json: body, auth: auth)
        }
        return try await client.send(operation.method, target, auth: auth)
    }

    private func unfillable(_ operation: DocumentedOperation, _ what: String) -> UnreadableContract {
        UnreadableContract(description: "\(operation): OperationFixture cannot fill \(what); teach it a value")
    }
}
