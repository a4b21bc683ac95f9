import ArgumentParser
import TILClient

extension UsersCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a user; their password is asked for.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Their full name.")
        var name: String

        @Argument(help: "What they log in with.")
        var username: String

        @Flag(help: "Read their password from stdin's first line instead of asking.")
        var passwordStdin = false

        func run() async throws {
            let context = try await options.context()
            let password = passwordStdin ? try Prompt.stdinLine("the password") : try Prompt.newSecret("Their password: ")
            try context.output.one(try await context.client.users.create(name: name, username: username, password: password))
        }
    }
}
