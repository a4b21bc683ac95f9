import ArgumentParser
import TILClient

extension AcronymsCommand {
    struct First: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The first acronym ever made.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.acronyms.first())
        }
    }
}
