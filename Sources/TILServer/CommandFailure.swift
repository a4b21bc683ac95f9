import App
import ArgumentParser
import Terminal

/// Why `til-server` stops, as one line for the operator and an exit status for scripts
/// (sysexits.h where one fits).
struct CommandFailure: Error {
    /// Nil when the message was already written (a thrown `ExitCode`).
    let message: String?
    let status: Int32

    static let failure: Int32 = 1
    static let usage: Int32 = 64  // EX_USAGE
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE
    static let configuration: Int32 = 78  // EX_CONFIG

    init(_ message: String, status: Int32 = Self.failure) {
        self.init(message: message, status: status)
    }

    private init(message: String?, status: Int32) {
        self.message = message
        self.status = status
    }

    init(_ error: any Error) {
        switch error {
        case let error as CommandFailure:
            self = error
        case let error as ConfigurationError:
            self.init(error.description, status: Self.configuration)
        case let error as PromptError:
            self.init(error.description, status: Self.usage)
        case let error as UserAdministration.Failure:
            self.init(error.description)
        case let error as ExitCode:
            self.init(message: nil, status: error.rawValue)
        case let error where TILServerCommand.exitCode(for: error) != .failure:
            // What ArgumentParser found wrong with the command line: its first line is the reason.
            let reason = TILServerCommand.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            self.init("\(reason) (see `til-server --help`)", status: TILServerCommand.exitCode(for: error).rawValue)
        default:
            self.init("\(error)")
        }
    }
}
