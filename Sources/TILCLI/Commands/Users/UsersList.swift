import ArgumentParser
import TILClient

extension UsersCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every user.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.users.list(limit: $0) }, with: context.output)
        }
    }
}
