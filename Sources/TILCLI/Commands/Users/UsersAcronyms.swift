import ArgumentParser
import Foundation
import TILClient

extension UsersCommand {
    struct Acronyms: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The acronyms a user owns.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var listing: ListOptions

        @Argument(help: "The user's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try await listing.show({ context.client.users.acronyms(of: id, limit: $0) }, with: context.output)
        }
    }
}
