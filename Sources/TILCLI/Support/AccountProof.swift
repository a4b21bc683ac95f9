import ArgumentParser
import Terminal
import TILClient

/// What turning TOTP off or renewing the recovery codes takes: the current password (asked
/// unseen, or stdin's first line) and, while TOTP is on, the app's code or a recovery code.
struct AccountProof: ParsableArguments {
    @Flag(help: "Read the current password from stdin's first line instead of asking.")
    var passwordStdin = false

    @OptionGroup var secondFactor: SecondFactorOptions

    /// The current password: stdin's first line, or asked unseen.
    func password() throws -> String {
        passwordStdin ? try Prompt.stdinLine("the current password") : try Prompt.ask("Current password: ", secret: true)
    }
}
