public import ArgumentParser

extension AsyncParsableCommand {
    /// Parses the process's arguments and runs the command they name: the `main` of `til` and
    /// `til-server`. `--help`, `--version` and completion scripts print and exit as
    /// ArgumentParser does; any other error goes to `failed`, which reports it in the program's
    /// own words (one line, its own exit codes) and ends the process.
    public static func runAsRoot(otherwise failed: @Sendable (any Error) -> Never) async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            failed(error)
        }
    }
}
