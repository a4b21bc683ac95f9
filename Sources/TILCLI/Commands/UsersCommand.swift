import ArgumentParser
import Foundation
import Terminal
import TILClient

/// `til users list|show|create|acronyms`
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Users: reading is open to all; creating needs the users:write scope.",
        subcommands: [ListCommand<List>.self, ItemCommand<Show>.self, ItemCommand<Create>.self, ListCommand<Acronyms>.self])

    struct List: ListRoute {
        static let configuration = CommandConfiguration(abstract: "Every user.")
        func pages(on client: APIClient, limit: Int) -> PageSequence<PublicUser> { client.users.list(limit: limit) }
    }

    struct Show: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "One user.")
        @Argument(help: "The user's id.", transform: Identifier.parse) var id: UUID
        func item(from client: APIClient) async throws -> PublicUser { try await client.users.show(id) }
    }

    struct Create: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "Make a user; their password is asked for.")
        @Argument(help: "Their full name.") var name: String
        @Argument(help: "What they log in with.") var username: String
        @Flag(help: "Read their password from stdin's first line instead of asking.") var passwordStdin = false

        func item(from client: APIClient) async throws -> PublicUser {
            let password = passwordStdin ? try Prompt.stdinLine("the password") : try Prompt.newSecret("Their password: ")
            return try await client.users.create(name: name, username: username, password: password)
        }
    }

    struct Acronyms: ListRoute {
        static let configuration = CommandConfiguration(abstract: "The acronyms a user owns.")
        @Argument(help: "The user's id.", transform: Identifier.parse) var id: UUID
        func pages(on client: APIClient, limit: Int) -> PageSequence<Acronym> { client.users.acronyms(of: id, limit: limit) }
    }
}
