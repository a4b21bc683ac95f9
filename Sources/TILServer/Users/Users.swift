import ArgumentParser

/// `til-server users`: an operator's commands on accounts, run on the server's machine with its
/// configuration, straight on the database.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List accounts, set a password, lift a login throttle, grant or revoke the administrator role, or reset second factors.",
        subcommands: [UsersList.self, UsersSetPassword.self, UsersUnlock.self, UsersAdmin.self, UsersMFAReset.self])
}

/// What a command on one account takes: the common options and the username.
struct AccountArguments: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Argument(help: "The account's username.")
    var username: String
}
