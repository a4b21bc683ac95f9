import ArgumentParser
import TILClient

/// `til logout [--all]`
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End this machine's sessions and forget their tokens.")

    @OptionGroup var options: GlobalOptions

    @Flag(help: "End every session of the user, on every device (needs the account scope).")
    var all = false

    func run() async throws {
        let context = try await options.context(needingLogin: true)
        if all {
            try await context.client.logoutEverywhere()
            return context.output.done("Logged out everywhere.")
        }
        let held = try await context.client.credentials()
        guard context.usesEnvironmentToken || !held.isEmpty else {
            return context.output.done("Not logged in.")
        }
        try await context.client.logout()
        context.output.done("Logged out.")
    }
}
