import ArgumentParser
import Foundation
import TILClient

extension CategoriesCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One category.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The category's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.categories.show(id))
        }
    }
}
