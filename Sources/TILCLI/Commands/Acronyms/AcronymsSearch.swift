import ArgumentParser
import TILClient

extension AcronymsCommand {
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Acronyms whose short or long form is exactly TERM.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        @Argument(help: "What to look for.")
        var term: String

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.acronyms.search(term, limit: $0) }, with: context.output)
        }
    }
}
