import ArgumentParser
import TILClient

extension AcronymsCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Acronyms in the order they were made.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.acronyms.list(limit: $0) }, with: context.output)
        }
    }
}
