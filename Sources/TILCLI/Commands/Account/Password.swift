import ArgumentParser
import Terminal
import TILClient

/// `til password [--password-stdin] [--code C | --recovery-code-stdin]`; a forgotten one:
/// `til password reset LOGIN`, then `til password reset-confirm`.
struct Password: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change your password; every other session ends (needs the account scope).",
        discussion: "With TOTP on, a code of the authenticator app (or a recovery code) is needed too: asked, or given with --code.",
        subcommands: [PasswordResetCommand.self, PasswordResetConfirmCommand.self])

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Read the current password, then the new one, from stdin's first two lines.")
    var passwordStdin = false

    @OptionGroup var secondFactor: SecondFactorOptions

    func run() async throws {
        let context = try await options.context(needingLogin: true)
        let totpOn = if secondFactor.isGiven { true } else { try await context.client.mfa.status().totp }
        let current: String, new: String
        if passwordStdin {
            (current, new) = (try Prompt.stdinLine("the current password"), try Prompt.stdinLine("the new password"))
        } else {
            (current, new) = (try Prompt.ask("Current password: ", secret: true), try Prompt.newSecret("New password: "))
        }
        let proof = try secondFactor.answer(ifNeeded: totpOn)
        try await context.client.account.changePassword(current: current, new: new, proof: proof)
        context.output.done("Password changed; your other sessions have ended.")
    }
}
