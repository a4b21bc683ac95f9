import ArgumentParser
import QRCode
import Terminal
import TILClient

extension MFACommand {
    /// `til mfa enable`: a new TOTP secret, drawn as a QR code for the authenticator app, with
    /// its URI and the secret for typing in; then, at a terminal, the app's code to confirm it.
    /// Without a terminal (or with `--json`) it stops there, and `til mfa confirm CODE` finishes.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn TOTP on: scan the QR code with an authenticator app, then type its code.",
            discussion: """
                Nothing changes until a code from the app confirms the secret; then the ten \
                recovery codes are printed, once. Without a terminal, or with --json (which \
                prints the secret and URI), finish with `til mfa confirm CODE`.
                """)

        @OptionGroup var options: GlobalOptions

        @Flag(help: "Draw the QR code for a terminal with a light background (dark text).")
        var lightBackground = false

        func run() async throws {
            let context = try await options.context(needingLogin: true)
            let enrolment = try await context.client.mfa.startTOTP()
            let output = context.output
            if options.json { return try output.printJSON(enrolment) }
            output.line("Scan this QR code with your authenticator app:")
            output.write(try QRCode(encoding: enrolment.otpauthURI).terminalText(darkOnLight: lightBackground))
            output.line("Or add it by hand, secret \(enrolment.secret) (TOTP, SHA-1, 6 digits, 30 seconds).")
            output.line("URI: \(enrolment.otpauthURI)")
            guard Prompt.stdinIsTerminal else {
                return output.note("TOTP is not on yet: confirm with `til mfa confirm CODE`, CODE being what the app shows.")
            }
            try await Retyping.attempt(asking: { try Prompt.ask("Code from the app: ", otherwise: "til mfa confirm CODE") }, output: output) {
                try await Confirm.confirm($0, with: context)
            }
        }
    }

    /// `til mfa confirm CODE`: finishes `til mfa enable` with the app's code.
    struct Confirm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Finish `til mfa enable` with the code the app shows; prints the recovery codes, once.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The 6-digit code of the authenticator app.")
        var code: String

        func run() async throws {
            try await Self.confirm(code, with: try await options.context(needingLogin: true))
        }

        static func confirm(_ code: String, with context: Context) async throws {
            let codes = try await context.client.mfa.confirmTOTP(code: code)
            try RecoveryCodeList(codes).print(to: context.output, after: "TOTP is on: `til login` will ask for the app's code.")
        }
    }
}
