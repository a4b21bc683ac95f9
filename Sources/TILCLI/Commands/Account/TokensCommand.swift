import ArgumentParser
import Foundation
import TILClient

/// `til tokens [list | create NAME --scope S --expires-in 30d | revoke ID]`
struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "Your personal access tokens, for scripts and CI (needs a login with the account scope).",
        discussion: """
            A personal access token (til_pat_…) is sent as TIL_TOKEN: every `til` command its \
            scopes allow works with it, never refreshed; commands that manage the account need a login.
            """,
        subcommands: [RowsCommand<List>.self, Create.self, ActionCommand<Revoke>.self], defaultSubcommand: RowsCommand<List>.self)

    struct List: RowsRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Every live token, oldest first; never a value.")

        func rows(from client: APIClient) async throws -> [PersonalAccessToken] {
            try await client.tokens.list()
        }
    }

    /// Prints the new token alone on stdout (`TOKEN=$(til tokens create …)`), what it is on
    /// stderr; with `--json`, the whole answer.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a token; it is printed this once.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "What it is for, such as \"CI deploys\".") var name: String
        @Option(name: .customLong("scope"), help: "A scope it may use (repeat for more): acronyms:write, categories:write, users:write.")
        var scopes: [String] = []
        @Option(help: "How long it lives: 30d, 12h, 45m or seconds (at most the server's PAT_MAX_TTL).", transform: Lifetime.parse)
        var expiresIn: Duration

        func run() async throws {
            let context = try await options.context(needingLogin: true)
            let scopes = scopes.flatMap { $0.split(separator: " ") }.map { Scope(rawValue: String($0)) }
            let token = try await context.client.tokens.create(name: name, scopes: scopes, expiresIn: expiresIn)
            if options.json { return try context.output.printJSON(token) }
            let scopeList = token.scopes.isEmpty ? "no scopes" : token.scopes.map(\.rawValue).joined(separator: " ")
            context.output.note("""
                Created personal access token '\(token.name)' (\(token.id.uuidString)): \(scopeList), \
                expires \(WireDate.text(of: token.expiresAt)). Copy it now: it is not shown again.
                """)
            context.output.line(token.token)
        }
    }

    struct Revoke: ActionRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: anything using it is refused from now on.")
        @Argument(help: "The token's id (the ID column of `til tokens`).", transform: Identifier.parse) var id: UUID

        func perform(on client: APIClient) async throws -> String {
            try await client.tokens.revoke(id)
            return "Revoked personal access token \(id.uuidString)."
        }
    }
}

/// A lifetime as `--expires-in` takes it: a whole number of days (`30d`), hours (`12h`),
/// minutes (`45m`) or seconds (`90s`, or no unit).
enum Lifetime {
    static func parse(_ text: String) throws -> Duration {
        let units: [Character: Int64] = ["d": 86400, "h": 3600, "m": 60, "s": 1]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let count = Int64(digits),
              case let (seconds, overflow) = count.multipliedReportingOverflow(by: unit ?? 1), !overflow, seconds > 0
        else { throw ValidationError("'\(text)' is not a lifetime: use 30d, 12h, 45m or a number of seconds.") }
        return .seconds(seconds)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
