import ArgumentParser
import Foundation
import TILClient

extension AcronymsCommand {
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an acronym in a category.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var pair: LinkedPair

        func run() async throws {
            let context = try await options.context()
            try await context.client.acronyms.link(pair.acronym, to: pair.category)
            context.output.done("Linked acronym \(pair.acronym.uuidString) to category \(pair.category.uuidString).")
        }
    }

    /// `ACRONYM CATEGORY`: the two ids `link` and `unlink` take.
    struct LinkedPair: ParsableArguments {
        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var acronym: UUID

        @Argument(help: "The category's id.", transform: Identifier.parse)
        var category: UUID
    }
}
