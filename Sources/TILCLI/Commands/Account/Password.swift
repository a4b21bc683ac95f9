import ArgumentParser
import Terminal
import TILClient

/// `til password [--password-stdin]`
struct Password: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change your password; every other session ends (needs the account scope).")

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Read the current password, then the new one, from stdin's first two lines.")
    var passwordStdin = false

    func run() async throws {
        let context = try await options.context()
        let current: String, new: String
        if passwordStdin {
            (current, new) = (try Prompt.stdinLine("the current password"), try Prompt.stdinLine("the new password"))
        } else {
            (current, new) = (try Prompt.ask("Current password: ", secret: true), try Prompt.newSecret("New password: "))
        }
        try await context.client.account.changePassword(current: current, new: new)
        context.output.done("Password changed; your other sessions have ended.")
    }
}
