import ArgumentParser
import Foundation
import TILClient

extension AcronymsCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One acronym.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.acronyms.show(id))
        }
    }
}
