import ArgumentParser
import TILClient

extension CategoriesCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every category.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.categories.list(limit: $0) }, with: context.output)
        }
    }
}
