import ArgumentParser
import Foundation
import TILClient

extension UsersCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One user.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The user's id.", transform: Identifier.parse)
        var id: UUID

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.users.show(id))
        }
    }
}
