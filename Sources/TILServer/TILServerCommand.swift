import ArgumentParser

/// `til-server serve | migrate | routes | users`, as Vapor's commands.
struct TILServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "til-server",
        abstract: "The TIL (Today I Learned) API server.",
        discussion: EnvironmentHelp.text,
        subcommands: [Serve.self, Migrate.self, Routes.self, Users.self, Clients.self, Keys.self],
        defaultSubcommand: Serve.self)
}
