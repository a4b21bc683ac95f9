import ArgumentParser
import Foundation
import TILClient

/// `til status`: who, which server, and when the tokens lapse.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show who is logged in, where, and until when.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let context = try await options.context()
        let me = try await context.client.email.profile()
        let tokens = try await context.client.credentials().credentials.map(TokenStatus.init)
        let report = StatusReport(
            server: context.client.server.absoluteString, user: me, tokenSource: context.usesEnvironmentToken ? "TIL_TOKEN" : "store",
            tokens: tokens)
        if options.json { return try context.output.printJSON(report) }
        let output = context.output
        output.line("Server:  \(report.server)")
        output.line("User:    \(me.username) (\(me.name)), id \(me.id.uuidString)")
        if let email = me.email {
            let state = me.emailVerified == true ? "verified" : "not verified"
            output.line("Email:   \(email) (\(state))" + (me.pendingEmail.map { ", changing to \($0) once verified" } ?? ""))
        }
        if context.usesEnvironmentToken { return output.line("Token:   \(context.tokenKind) from TIL_TOKEN") }
        output.line("Tokens:")
        try output.list(tokens)
    }
}

/// What `til status --json` prints.
struct StatusReport: Encodable {
    var server: String
    var user: AccountProfile
    var tokenSource: String
    var tokens: [TokenStatus]
}

/// One stored token as `til status` shows it: never its value.
struct TokenStatus: TableRow {
    var session: UUID
    /// `password` (`til login`), `web` (`til login --web`) or `browser` (`til login --browser`),
    /// the last two through the OAuth client named.
    var obtainedBy: String
    var oauthClient: String?
    var scopes: [String]
    var expiresAt: String
    var refreshExpiresAt: String

    init(_ credential: Credential) {
        session = credential.sessionID
        obtainedBy = switch credential.signIn {
        case .password: "password"
        case .device: "web"
        case .browser: "browser"
        }
        oauthClient = credential.oauthClientID
        scopes = credential.scopes.names
        expiresAt = credential.expiresAt.formatted(.iso8601)
        refreshExpiresAt = credential.refreshExpiresAt.formatted(.iso8601)
    }

    static let headers = ["SESSION", "LOGIN", "SCOPES", "EXPIRES", "LOGIN ENDS"]
    var cells: [String] {
        let login = oauthClient.map { "\(obtainedBy) (\($0))" } ?? obtainedBy
        return [session.uuidString, login, scopes.joined(separator: " "), expiresAt, refreshExpiresAt]
    }
}
