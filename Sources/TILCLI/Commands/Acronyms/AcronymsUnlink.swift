import ArgumentParser
import TILClient
import Foundation

extension AcronymsCommand {
    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an acronym out of a category.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var acronym: UUID

        @Argument(help: "The category's id.", transform: Identifier.parse)
        var category: UUID

        func run() async throws {
            let context = try await options.context()
            try await context.client.acronyms.unlink(acronym, from: category)
            context.output.done("Unlinked acronym \(acronym.uuidString) from category \(category.uuidString).")
        }
    }
}
