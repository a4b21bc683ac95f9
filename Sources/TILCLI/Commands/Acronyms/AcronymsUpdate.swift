import ArgumentParser
import Foundation
import TILClient

extension AcronymsCommand {
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an acronym's short and long forms.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym's id.", transform: Identifier.parse)
        var id: UUID

        @Argument(help: "The new short form.")
        var short: String

        @Argument(help: "The new long form.")
        var long: String

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.acronyms.update(id, short: short, long: long))
        }
    }
}
