import ArgumentParser

/// `til`: the TIL API from a shell.
struct TILCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "til",
        abstract: "Today I Learned, from the command line.",
        discussion: """
            Logs in once (`til login`) and keeps the tokens in $XDG_CONFIG_HOME/til/ (else \
            ~/.config/til/), mode 0600 (a folder or file others can reach is refused), refreshing \
            them as needed; a token goes only to the server that issued it. TIL_SERVER overrides the \
            server, TIL_TOKEN the stored tokens (a personal access token from `til tokens create`, say; \
            commands that manage the account need a login). Exit codes: 0 ok, 1 usage, 2 not \
            authenticated, 3 not found, 4 other errors.
            """,
        version: "1.0",
        subcommands: [
            Login.self, Logout.self, Status.self, SessionsCommand.self, Password.self, Reauth.self, EmailCommand.self, MFACommand.self,
            PasskeysCommand.self, TokensCommand.self,
            AcronymsCommand.self, CategoriesCommand.self, UsersCommand.self,
        ])
}
