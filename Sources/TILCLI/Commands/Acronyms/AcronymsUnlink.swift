import ArgumentParser
import Foundation
import TILClient

extension AcronymsCommand {
    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an acronym out of a category.")

        @OptionGroup var options: GlobalOptions
        @OptionGroup var pair: LinkedPair

        func run() async throws {
            let context = try await options.context()
            try await context.client.acronyms.unlink(pair.acronym, from: pair.category)
            context.output.done("Unlinked acronym \(pair.acronym.uuidString) from category \(pair.category.uuidString).")
        }
    }
}
