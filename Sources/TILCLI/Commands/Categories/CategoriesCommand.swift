import ArgumentParser
import TILClient

/// `til categories list|show|create|acronyms`
struct CategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories", abstract: "Categories: reading is open to all; creating needs the categories:write scope.",
        subcommands: [List.self, Show.self, Create.self, Acronyms.self])
}
