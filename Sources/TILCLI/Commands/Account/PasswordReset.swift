import ArgumentParser
import Terminal
import TILClient

/// `til password reset LOGIN`: a reset link by mail, for a forgotten password (no login needed).
struct PasswordResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Ask for a password reset link by mail (no login needed).",
        discussion: "The link goes to the account's verified email address; the answer is the same whether LOGIN names an account or not.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Your username or your email address.")
    var login: String

    func run() async throws {
        let context = try await options.context()
        context.output.done(try await context.client.passwordReset.request(login: login))
    }
}

/// `til password reset-confirm [--token-stdin] [--new-password-stdin] [--code C | --recovery-code-stdin]`
struct PasswordResetConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-confirm", abstract: "Set a new password with the token of a reset mail; every session of the account ends.",
        discussion: """
            The token is the end of the mail's link, after `token=`. With two-step sign-in on, a code of the authenticator app \
            (or a recovery code) is needed too: asked, or given with --code.
            """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Read the token from stdin's first line (else it is asked, unseen).")
    var tokenStdin = false

    @Flag(help: "Read the new password from stdin's next line (else it is asked twice, unseen).")
    var newPasswordStdin = false

    @OptionGroup var secondFactor: SecondFactorOptions

    func run() async throws {
        let context = try await options.context()
        let token = tokenStdin ? try Prompt.stdinLine("the reset token") : try Prompt.ask("Token from the mail's link: ", secret: true, otherwise: "--token-stdin")
        let password = newPasswordStdin ? try Prompt.stdinLine("the new password") : try Prompt.newSecret("New password: ")
        let resets = context.client.passwordReset
        do {
            try await resets.confirm(token: token, newPassword: password)
        } catch TILError.secondFactorRequired(let challenge) {
            try await resets.confirm(token: token, challenge: challenge, with: try secondFactor.answer())
        }
        context.output.done("Password reset; every session of the account has ended. Log in with the new one: til login.")
    }
}
