import ArgumentParser
import TILClient

extension AcronymsCommand {
    struct Sorted: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Acronyms by their short form.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.acronyms.sorted(limit: $0) }, with: context.output)
        }
    }
}
