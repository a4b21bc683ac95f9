import ArgumentParser
import Terminal
import TILClient

/// `--code`, `--recovery-code`, `--recovery-code-stdin`: the second factor of a login, or the
/// proof that turning TOTP off, renewing recovery codes or changing the password needs.
/// Without them `til` asks at the terminal: the app's code in the clear (it is worthless in 30
/// seconds), a recovery code with echo off (it is a secret until used).
struct SecondFactorOptions: ParsableArguments {
    @Option(help: "The 6-digit code of your authenticator app, if a second factor is needed.")
    var code: String?

    @Option(help: ArgumentHelp(
        "A recovery code instead of the app's code (used up).",
        discussion: "A command line is visible to other users of this machine: prefer --recovery-code-stdin."))
    var recoveryCode: String?

    @Flag(help: "Read a recovery code from stdin's next line (after the password's, with --password-stdin).")
    var recoveryCodeStdin = false

    func validate() throws {
        if [code != nil, recoveryCode != nil, recoveryCodeStdin].filter({ $0 }).count > 1 {
            throw ValidationError("Give one of --code, --recovery-code and --recovery-code-stdin.")
        }
    }

    /// True when one was given on the command line.
    var isGiven: Bool { code != nil || recoveryCode != nil || recoveryCodeStdin }

    /// The factor given on the command line (or stdin), nil when none was.
    func given() throws -> SecondFactorCode? {
        if let code { return .totp(code) }
        if let recoveryCode { return .recoveryCode(recoveryCode) }
        if recoveryCodeStdin { return .recoveryCode(try Prompt.stdinLine("a recovery code")) }
        return nil
    }

    /// The factor given; else, when `needed`, asked at the terminal; else nil.
    func answer(ifNeeded needed: Bool) throws -> SecondFactorCode? {
        if isGiven { return try given() }
        return needed ? try answer() : nil
    }

    /// The factor given, else asked at the terminal: the app's code, or (an empty answer) a
    /// recovery code, typed unseen.
    func answer() throws -> SecondFactorCode {
        if let given = try given() { return given }
        return try Self.ask()
    }

    /// The factor asked at the terminal: the app's code, or (an empty answer) a recovery code,
    /// typed unseen; without a terminal, a usage error naming `option`.
    static func ask(otherwise option: String = "--code or --recovery-code-stdin") throws -> SecondFactorCode {
        let code = try Prompt.ask("Code from your authenticator app (Enter alone to use a recovery code): ", otherwise: option)
        guard code.isEmpty else { return .totp(code) }
        let recovery = try Prompt.ask("Recovery code: ", secret: true, otherwise: option)
        guard !recovery.isEmpty else { throw UsageError("No code given.") }
        return .recoveryCode(recovery)
    }
}
