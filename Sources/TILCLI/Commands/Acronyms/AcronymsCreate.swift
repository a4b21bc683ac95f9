import ArgumentParser
import TILClient

extension AcronymsCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an acronym; you own it.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The acronym: OMG.")
        var short: String

        @Argument(help: "What it stands for: \"Oh My God\".")
        var long: String

        func run() async throws {
            let context = try await options.context()
            try context.output.one(try await context.client.acronyms.create(short: short, long: long))
        }
    }
}
