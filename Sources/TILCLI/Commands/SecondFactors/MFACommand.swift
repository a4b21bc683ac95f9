import ArgumentParser
import Foundation
import TILClient

/// `til mfa [status | enable | confirm CODE | disable | recovery-codes]`
struct MFACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mfa", abstract: "Your second factor: TOTP and its recovery codes (needs the account scope).",
        discussion: """
            With TOTP on, `til login` asks for the code of your authenticator app after the \
            password. A recovery code stands in for the app's code once, when the phone is lost. \
            Turning TOTP off and making new recovery codes need the current password and a code.
            """,
        subcommands: [ItemCommand<Status>.self, Enable.self, Confirm.self, Disable.self, NewRecoveryCodes.self],
        defaultSubcommand: ItemCommand<Status>.self)

    struct Status: ItemRoute, NeedsLogin {
        static let configuration = CommandConfiguration(abstract: "Whether TOTP is on, recovery codes left, passkeys held.")

        func item(from client: APIClient) async throws -> MFAStatus {
            try await client.mfa.status()
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn TOTP off (and drop the recovery codes): needs the password and a code.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var proof: AccountProof

        func run() async throws {
            let context = try await options.context(needingLogin: true)
            let on = try await context.client.mfa.status().totp
            let password = try proof.password()
            try await context.client.mfa.disableTOTP(currentPassword: password, proof: try proof.secondFactor.answer(ifNeeded: on))
            context.output.done(on ? "TOTP is off; the recovery codes are gone." : "TOTP was not on; an unconfirmed enrolment, if any, is gone.")
        }
    }

    struct NewRecoveryCodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes",
            abstract: "Make ten new recovery codes in place of the old ones: needs the password and a code.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var proof: AccountProof

        func run() async throws {
            let context = try await options.context(needingLogin: true)
            guard try await context.client.mfa.status().totp else {
                throw UsageError("TOTP is not on for this account, so it has no recovery codes: `til mfa enable` first.")
            }
            let password = try proof.password()
            let codes = try await context.client.mfa.regenerateRecoveryCodes(currentPassword: password, proof: try proof.secondFactor.answer())
            try RecoveryCodeList(codes).print(to: context.output, after: "New recovery codes; the old ones no longer work.")
        }
    }
}

/// Recovery codes, shown once: for people a line that says what they are, then one code a line;
/// with `--json`, `{"recoveryCodes": [...]}`.
struct RecoveryCodeList {
    let codes: [String]

    init(_ codes: [String]) { self.codes = codes }

    func print(to output: Output, after headline: String) throws {
        if output.json { return try output.printJSON(RecoveryCodes(recoveryCodes: codes)) }
        output.line(headline)
        output.line("Each recovery code logs in once in place of the app's code. Keep them somewhere safe: they are not shown again.")
        for code in codes { output.line("  \(code)") }
    }
}
