import App
import ArgumentParser
import Terminal

/// Sets a password as an operator: for the admin whose `ADMIN_PASSWORD` no longer applies,
/// or anyone locked out of their account. The password rules apply, and every session of
/// the user ends, as after a password change.
struct UsersSetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password", abstract: "Set a user's password and end all of their sessions.")

    @OptionGroup var account: AccountArguments

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of stdin instead of asking.")
    var passwordStdin = false

    func run() async throws {
        try await account.common.withTIL(seedsAdmin: false) { til in
            let password = try readPassword()
            let ended = try await til.administration.setPassword(password, of: account.username)
            print("Password of \(account.username) set; \(ended) session\(ended == 1 ? "" : "s") ended.")
        }
    }

    /// From stdin with `--password-stdin`, else typed twice at the terminal without echo.
    private func readPassword() throws -> String {
        if passwordStdin { return try Prompt.stdinLine("the password") }
        guard Prompt.stdinIsTerminal else {
            throw PromptError("stdin is not a terminal to type the password on: pipe it in with --password-stdin.")
        }
        return try Prompt.newSecret("New password for \(account.username): ")
    }
}
