import ArgumentParser
import TILClient

/// `til users list|show|create|acronyms`
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Users: reading is open to all; creating needs the users:write scope.",
        subcommands: [List.self, Show.self, Create.self, Acronyms.self])
}
