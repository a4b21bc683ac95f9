import ArgumentParser
import TILClient

/// `til acronyms list|show|search|first|sorted|create|update|delete|link|unlink`
struct AcronymsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acronyms", abstract: "Acronyms: reading is open to all; changes need the acronyms:write scope.",
        subcommands: [List.self, Show.self, Search.self, First.self, Sorted.self, Create.self, Update.self, Delete.self, Link.self, Unlink.self])
}
