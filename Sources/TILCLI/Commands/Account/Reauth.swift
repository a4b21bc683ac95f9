import ArgumentParser
import Terminal
import TILClient

/// `til reauth [--password-stdin] [--code C | --recovery-code-stdin]`
struct Reauth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prove it is you again, before a sensitive change (needs the account scope).",
        discussion: """
            Setting up TOTP and adding or removing passkeys need a sign-in from the last few \
            minutes (the server's REAUTH_WINDOW, 10 by default). At a terminal `til` asks for \
            the password by itself when a command needs it; a script runs `til reauth \
            --password-stdin` first. With TOTP on, a code of the authenticator app (or a \
            recovery code) is needed too: asked, or given with --code.
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var proof: AccountProof

    func run() async throws {
        let context = try await options.context(needingLogin: true)
        let password = try proof.password()
        do {
            try await context.client.account.reauthenticate(password: password, proof: try proof.secondFactor.given())
        } catch TILError.reauthenticationRequired(let need) where need.needsSecondFactor && !proof.secondFactor.isGiven {
            try await context.client.account.reauthenticate(password: password, proof: try proof.secondFactor.answer())
        }
        context.output.done("Signed in again: sensitive changes are allowed for the next few minutes.")
    }
}
