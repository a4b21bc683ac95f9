import ArgumentParser
import TILClient

extension CategoriesCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a category.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Its name.")
        var name: String

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.categories.create(name: name))
        }
    }
}
