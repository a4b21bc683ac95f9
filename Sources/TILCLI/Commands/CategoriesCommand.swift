import ArgumentParser
import Foundation
import TILClient

/// `til categories list|show|create|acronyms`
struct CategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories", abstract: "Categories: reading is open to all; creating needs the categories:write scope.",
        subcommands: [ListCommand<List>.self, ItemCommand<Show>.self, ItemCommand<Create>.self, ListCommand<Acronyms>.self])

    struct List: ListRoute {
        static let configuration = CommandConfiguration(abstract: "Every category.")
        func pages(on client: APIClient, limit: Int) -> PageSequence<TILClient.Category> { client.categories.list(limit: limit) }
    }

    struct Show: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "One category.")
        @Argument(help: "The category's id.", transform: Identifier.parse) var id: UUID
        func item(from client: APIClient) async throws -> TILClient.Category { try await client.categories.show(id) }
    }

    struct Create: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "Make a category.")
        @Argument(help: "Its name.") var name: String
        func item(from client: APIClient) async throws -> TILClient.Category { try await client.categories.create(name: name) }
    }

    struct Acronyms: ListRoute {
        static let configuration = CommandConfiguration(abstract: "The acronyms in a category.")
        @Argument(help: "The category's id.", transform: Identifier.parse) var id: UUID
        func pages(on client: APIClient, limit: Int) -> PageSequence<Acronym> { client.categories.acronyms(in: id, limit: limit) }
    }
}
