import ArgumentParser
import Foundation
import TILClient

/// `til acronyms list|show|search|first|sorted|create|update|delete|link|unlink`
struct AcronymsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acronyms", abstract: "Acronyms: reading is open to all; changes need the acronyms:write scope.",
        subcommands: [
            ListCommand<List>.self, ItemCommand<Show>.self, ListCommand<Search>.self, ItemCommand<First>.self,
            ListCommand<Sorted>.self, ItemCommand<Create>.self, ItemCommand<Update>.self, ActionCommand<Delete>.self,
            ActionCommand<Link>.self, ActionCommand<Unlink>.self,
        ])

    struct List: ListRoute {
        static let configuration = CommandConfiguration(abstract: "Acronyms in the order they were made.")
        func pages(on client: APIClient, limit: Int) -> PageSequence<Acronym> { client.acronyms.list(limit: limit) }
    }

    struct Show: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "One acronym.")
        @Argument(help: "The acronym's id.", transform: Identifier.parse) var id: UUID
        func item(from client: APIClient) async throws -> Acronym { try await client.acronyms.show(id) }
    }

    struct Search: ListRoute {
        static let configuration = CommandConfiguration(abstract: "Acronyms whose short or long form is exactly TERM.")
        @Argument(help: "What to look for.") var term: String
        func pages(on client: APIClient, limit: Int) -> PageSequence<Acronym> { client.acronyms.search(term, limit: limit) }
    }

    struct First: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "The first acronym ever made.")
        func item(from client: APIClient) async throws -> Acronym { try await client.acronyms.first() }
    }

    struct Sorted: ListRoute {
        static let configuration = CommandConfiguration(abstract: "Acronyms by their short form.")
        func pages(on client: APIClient, limit: Int) -> PageSequence<Acronym> { client.acronyms.sorted(limit: limit) }
    }

    struct Create: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "Make an acronym; you own it.")
        @Argument(help: "The acronym: OMG.") var short: String
        @Argument(help: "What it stands for: \"Oh My God\".") var long: String
        func item(from client: APIClient) async throws -> Acronym { try await client.acronyms.create(short: short, long: long) }
    }

    struct Update: ItemRoute {
        static let configuration = CommandConfiguration(abstract: "Change an acronym's short and long forms.")
        @Argument(help: "The acronym's id.", transform: Identifier.parse) var id: UUID
        @Argument(help: "The new short form.") var short: String
        @Argument(help: "The new long form.") var long: String
        func item(from client: APIClient) async throws -> Acronym { try await client.acronyms.update(id, short: short, long: long) }
    }

    struct Delete: ActionRoute {
        static let configuration = CommandConfiguration(abstract: "Delete an acronym.")
        @Argument(help: "The acronym's id.", transform: Identifier.parse) var id: UUID

        func perform(on client: APIClient) async throws -> String {
            try await client.acronyms.delete(id)
            return "Deleted acronym \(id.uuidString)."
        }
    }

    struct Link: ActionRoute {
        static let configuration = CommandConfiguration(abstract: "Put an acronym in a category.")
        @OptionGroup var pair: LinkedPair

        func perform(on client: APIClient) async throws -> String {
            try await client.acronyms.link(pair.acronym, to: pair.category)
            return "Linked acronym \(pair.acronym.uuidString) to category \(pair.category.uuidString)."
        }
    }

    struct Unlink: ActionRoute {
        static let configuration = CommandConfiguration(abstract: "Take an acronym out of a category.")
        @OptionGroup var pair: LinkedPair

        func perform(on client: APIClient) async throws -> String {
            try await client.acronyms.unlink(pair.acronym, from: pair.category)
            return "Unlinked acronym \(pair.acronym.uuidString) from category \(pair.category.uuidString)."
        }
    }

    /// `ACRONYM CATEGORY`: the two ids `link` and `unlink` take.
    struct LinkedPair: ParsableArguments {
        @Argument(help: "The acronym's id.", transform: Identifier.parse) var acronym: UUID
        @Argument(help: "The category's id.", transform: Identifier.parse) var category: UUID
    }
}
