import ArgumentParser
import Foundation
import TILClient

extension AcronymsCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an acronym.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try await context.client.acronyms.delete(id)
            context.output.done("Deleted acronym \(id.uuidString).")
        }
    }
}
