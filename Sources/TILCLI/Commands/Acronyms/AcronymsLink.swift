import ArgumentParser
import TILClient
import Foundation

extension AcronymsCommand {
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an acronym in a category.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var acronym: UUID

        @Argument(help: "The category's id.", transform: Identifier.parse)
        var category: UUID

        func run() async throws {
            let context = try await options.context()
            try await context.client.acronyms.link(acronym, to: category)
            context.output.done("Linked acronym \(acronym.uuidString) to category \(category.uuidString).")
        }
    }
}
