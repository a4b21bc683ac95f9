import Crypt
import Foundation
import Terminal

/// Runs `til-server` and ends it the way operators and scripts can rely on: any failure is one
/// line `til-server: <reason>` on stderr, with an exit status that says which kind
/// (`CommandFailure`): 78 for configuration, 64 for usage, 69 for an unreachable database.
@main
enum EntryPoint {
    static func main() async {
        // Before anything touches OpenSSL: its exit handler would race the threads still running.
        OpenSSLExitCleanup.skip()
        await TILServerCommand.runAsRoot { error in
            let failure = CommandFailure(error)
            if let message = failure.message {
                FileHandle.standardError.write(Data("til-server: \(oneLine(message))\n".utf8))
            }
            exit(failure.status)
        }
    }

    /// A message that spans lines (libpq's do) as one: lines become sentences.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.dropFirst().reduce(lines.first ?? "") { text, line in
            text + (text.last.map { ".:;!?".contains($0) } == true ? " " : ". ") + line
        }
    }
}
