import ArgumentParser
import Terminal
import TILClient

/// `til email [status | set ADDRESS | verify TOKEN | resend]`
struct EmailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email", abstract: "Your email address: see it, change it, verify it (needs the account scope).",
        discussion: """
            A new address is pending until you follow the link mailed to it (24 hours): paste the \
            link, or its token, into `til email verify`. Until then your old address stays in force.
            """,
        subcommands: [ItemCommand<Status>.self, SetAddress.self, ActionCommand<Verify>.self, ActionCommand<Resend>.self],
        defaultSubcommand: ItemCommand<Status>.self)

    struct Status: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "The address, whether it is verified, and a pending change.")

        func item(from client: APIClient) async throws -> AccountProfile {
            try await client.email.status()
        }
    }

    struct SetAddress: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Change (or add) your address: a link goes to it; needs the password.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The new address.") var address: String
        @Flag(help: "Read the current password from stdin's first line instead of asking.")
        var passwordStdin = false

        func run() async throws {
            let context = try await options.context(needingLogin: true)
            let password = passwordStdin ? try Prompt.stdinLine("the current password") : try Prompt.ask("Current password: ", secret: true)
            let profile = try await context.client.email.change(to: address, currentPassword: password)
            if context.output.json { return try context.output.printJSON(profile) }
            let pending = profile.pendingEmail ?? address
            context.output.line("A link is on its way to \(pending): your address changes once you follow it (within 24 hours).")
            if let current = profile.email { context.output.line("Until then it stays \(current).") }
        }
    }

    struct Verify: ActionRoute {
        static let configuration = CommandConfiguration(abstract: "Verify an address with the link mailed to it (or its token); no login needed.")

        @Argument(help: "The link from the mail, or its token.") var token: String

        func perform(on client: APIClient) async throws -> String {
            try await client.email.verify(token: token)
            return "Your email address is verified."
        }
    }

    struct Resend: ActionRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Send the verification link again.")

        func perform(on client: APIClient) async throws -> String {
            try await client.email.resendVerification()
            return "The link is on its way again; it works for 24 hours."
        }
    }
}

extension AccountProfile: TableRow {
    static var headers: [String] { ["EMAIL", "VERIFIED", "PENDING"] }
    var cells: [String] { [email ?? "none", email == nil ? "-" : (emailVerified == true ? "yes" : "no"), pendingEmail ?? "-"] }
}
