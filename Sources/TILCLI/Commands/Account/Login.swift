import ArgumentParser
import Foundation
import Terminal
import TILClient

/// `til login [--server URL] [--username U] [--scope S] [--password-stdin]`, or `til login --web`
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in and keep the tokens for the next commands.",
        discussion: """
            Logging in again for the same scopes ends the session it replaces; logging in to \
            another server, or as another user, ends the sessions held before, each at its own \
            server. Warns when an http:// server is not this machine. With --web, no password \
            is typed here: approve a one-time code in a browser (opened with $BROWSER when set).
            """)

    @Flag(help: "Log in through a browser with a one-time code (OAuth device grant, as the til-cli client).")
    var web = false

    @OptionGroup var options: GlobalOptions

    @Option(help: "Who to log in as (asked at the terminal when left out).")
    var username: String?

    @Option(help: ArgumentHelp(
        "Scopes to ask for, repeated or space-separated (default: all).",
        discussion: "Known: \(Scope.known.map(\.rawValue).joined(separator: ", "))."))
    var scope: [String] = []

    @Flag(help: "Read the password from stdin's first line instead of asking.")
    var passwordStdin = false

    func validate() throws {
        _ = try scopes()
        if web, username != nil || passwordStdin || !scope.isEmpty {
            throw ValidationError("--web takes no --username, --password-stdin or --scope: the browser says who, with every scope of til-cli.")
        }
    }

    func run() async throws {
        let context = try await options.context(environment: ProcessInfo.processInfo.environment.filter { $0.key != "TIL_TOKEN" })
        if web { return try await WebLogin(context: context, json: options.json).run() }
        if let origin = Origin(context.client.server), origin.scheme == "http", !origin.isLoopback {
            context.output.warn(
                "\(context.client.server.absoluteString) is not encrypted: the password and tokens cross the network in clear text (use https://).")
        }
        let username = try username ?? Prompt.ask("Username: ", otherwise: "--username")
        let password = passwordStdin ? try Prompt.stdinLine("the password") : try Prompt.ask("Password: ", secret: true)
        let token = try await context.client.login(username: username, password: password, scopes: try scopes())
        let summary = LoginSummary(
            server: context.client.server.absoluteString, username: username, userID: token.user.id, session: token.id,
            scopes: token.scopes, expiresAt: token.expiresAt, refreshExpiresAt: token.refreshExpiresAt)
        if options.json { return try context.output.printJSON(summary) }
        context.output.line("Logged in to \(summary.server) as \(username) (scopes: \(token.scopes.map(\.rawValue).joined(separator: " "))).")
    }

    /// The scopes named, nil for all; an unknown name is a usage error.
    private func scopes() throws -> Set<Scope>? {
        let names = scope.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }) }
        guard !names.isEmpty else { return nil }
        return Set(try names.map { name in
            let scope = Scope(rawValue: String(name))
            guard scope.isKnown else {
                throw ValidationError("Unknown scope '\(name)'; known: \(Scope.known.map(\.rawValue).joined(separator: ", ")).")
            }
            return scope
        })
    }
}

/// What `til login --json` prints: never a token.
struct LoginSummary: Encodable {
    var server: String
    var username: String
    var userID: UUID
    var session: UUID
    var scopes: [Scope]
    @WireDate var expiresAt: Date
    @WireDate var refreshExpiresAt: Date
}
