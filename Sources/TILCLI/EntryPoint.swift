import Foundation
import Terminal

/// Runs `til` and ends it with an exit code scripts can trust: 0 ok, 1 usage, 2 not
/// authenticated, 3 not found, 4 any other failure. Errors go to stderr in one line.
@main
enum EntryPoint {
    static func main() async {
        await TILCommand.runAsRoot { error in
            let failure = Failure(error)
            FileHandle.standardError.write(Data("til: \(TerminalText.escaped(failure.message))\n".utf8))
            exit(failure.status.rawValue)
        }
    }
}
