import ArgumentParser
import Foundation
import Terminal
import TILClient

/// `til login [--server URL] [--username U] [--scope S] [--password-stdin] [--code C | --recovery-code-stdin]`,
/// `til login --web`, or `til login --browser [--scope S]`
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in and keep the tokens for the next commands.",
        discussion: """
            Logging in again for the same scopes ends the session it replaces; logging in to \
            another server, or as another user, ends the sessions held before, each at its own \
            server. Warns when an http:// server is not this machine. With --web, no password \
            is typed here: approve a one-time code in a browser (opened with $BROWSER when set). \
            With --browser, sign in in this machine's browser (opened with $BROWSER, else open \
            the URL shown); til catches its answer on 127.0.0.1. For an account with TOTP on, \
            the code of the authenticator app is asked after the password (or given with --code; \
            a recovery code with --recovery-code-stdin).
            """)

    @Flag(help: "Log in through a browser with a one-time code (OAuth device grant, as the til-cli client).")
    var web = false

    @Flag(help: "Log in in a browser on this machine (OAuth code flow with PKCE as til-cli; the answer comes back to 127.0.0.1).")
    var browser = false

    @Option(help: "With --browser: seconds to wait for the browser to come back.")
    var browserTimeout = 300

    @OptionGroup var options: GlobalOptions

    @Option(help: "Who to log in as (asked at the terminal when left out).")
    var username: String?

    @Option(help: ArgumentHelp(
        "Scopes to ask for, repeated or space-separated (default: all).",
        discussion: "Known: \(Scope.known.map(\.rawValue).joined(separator: ", "))."))
    var scope: [String] = []

    @Flag(help: "Read the password from stdin's first line instead of asking.")
    var passwordStdin = false

    @OptionGroup var secondFactor: SecondFactorOptions

    func validate() throws {
        _ = try scopes()
        if web, username != nil || passwordStdin || !scope.isEmpty {
            throw ValidationError("--web takes no --username, --password-stdin or --scope: the browser says who, with every scope of til-cli.")
        }
        if browser, web || username != nil || passwordStdin {
            throw ValidationError("--browser takes no --web, --username or --password-stdin: the browser says who.")
        }
        if web || browser, secondFactor.isGiven {
            throw ValidationError("--web and --browser take no code: the server's pages ask for the second factor.")
        }
        guard (1...3600).contains(browserTimeout) else { throw ValidationError("--browser-timeout must be 1 to 3600 seconds.") }
    }

    func run() async throws {
        let context = try await options.context(environment: ProcessInfo.processInfo.environment.filter { $0.key != "TIL_TOKEN" })
        if web { return try await WebLogin(context: context, json: options.json).run() }
        if let origin = Origin(context.client.server), origin.scheme == "http", !origin.isLoopback {
            context.output.warn(
                "\(context.client.server.absoluteString) is not encrypted: the password and tokens cross the network in clear text (use https://).")
        }
        if browser {
            return try await BrowserLogin(context: context, json: options.json, scopes: try scopes(), timeout: .seconds(browserTimeout)).run()
        }
        let username = try username ?? Prompt.ask("Username: ", otherwise: "--username")
        let password = passwordStdin ? try Prompt.stdinLine("the password") : try Prompt.ask("Password: ", secret: true)
        let token = try await passwordLogin(context, username: username, password: password)
        let summary = LoginSummary(server: context.client.server, username: username, token: token)
        try summary.print(to: context.output, json: options.json, "Logged in to \(summary.server) as \(username) (scopes: \(summary.scopeNames)).")
    }

    /// The login, with its second step when the server asks for one.
    private func passwordLogin(_ context: Context, username: String, password: String) async throws -> Token {
        let token: Token
        do {
            token = try await context.client.login(username: username, password: password, scopes: try scopes())
            if secondFactor.isGiven { context.output.warn("\(username) has no second factor: the code given was not used.") }
        } catch TILError.secondFactorRequired(let challenge) {
            if let given = try secondFactor.given() {
                token = try await context.client.completeSecondFactor(challenge, with: given)
            } else {
                token = try await Retyping.attempt(asking: secondFactor.answer, output: context.output) {
                    try await context.client.completeSecondFactor(challenge, with: $0)
                }
            }
        }
        if let left = token.recoveryCodesRemaining {
            context.output.note("A recovery code was used up: \(left) left (`til mfa recovery-codes` makes a new set).")
        }
        return token
    }

    /// The scopes named, nil for all; an unknown name is a usage error.
    func scopes() throws -> Set<Scope>? {
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
    /// After a login completed with a recovery code: how many are left.
    var recoveryCodesRemaining: Int?
    @WireDate var expiresAt: Date
    @WireDate var refreshExpiresAt: Date

    init(server: URL, username: String, token: Token) {
        self.server = server.absoluteString
        self.username = username
        userID = token.user.id
        session = token.id
        scopes = token.scopes
        recoveryCodesRemaining = token.recoveryCodesRemaining
        expiresAt = token.expiresAt
        refreshExpiresAt = token.refreshExpiresAt
    }

    /// `acronyms:write account`.
    var scopeNames: String { scopes.map(\.rawValue).joined(separator: " ") }

    /// The summary with `--json`; else `line`, for people.
    func print(to output: Output, json: Bool, _ line: String) throws {
        if json { return try output.printJSON(self) }
        output.line(line)
    }
}
