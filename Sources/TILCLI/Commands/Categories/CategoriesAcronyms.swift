import ArgumentParser
import Foundation
import TILClient

extension CategoriesCommand {
    struct Acronyms: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The acronyms in a category.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        @Argument(help: "The category's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.categories.acronyms(in: id, limit: $0) }, with: context.output)
        }
    }
}
