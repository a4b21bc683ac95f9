import ArgumentParser
import Terminal
import TILClient

/// The exit codes of `til`.
enum ExitStatus: Int32 {
    case ok = 0
    case usage = 1
    case notAuthenticated = 2
    case notFound = 3
    case failed = 4
}

/// A mistake in how `til` was called, found after parsing (no terminal to prompt on, say).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// What went wrong, as one line for a person and an exit code for a script.
struct Failure {
    let message: String
    let status: ExitStatus

    init(_ error: any Error) {
        switch error {
        case TILError.notAuthenticated(let reason):
            (message, status) = ("not authenticated: \(reason) Run `til login`.", .notAuthenticated)
        case TILError.server(let code, let reason, _):
            let status: ExitStatus = switch code {
            case 401: .notAuthenticated
            case 404: .notFound
            default: .failed
            }
            (message, self.status) = ("\(reason) (\(code))", status)
        case TILError.needsLogin:
            (message, status) = ("\(PersonalAccessToken.needsLoginReason): unset TIL_TOKEN and run `til login`.", .notAuthenticated)
        case TILError.secondFactorRequired(let challenge):
            (message, status) = ("not authenticated: \(challenge). Run `til login`.", .notAuthenticated)
        case TILError.reauthenticationRequired(let need):
            (message, status) = ("\(need). Run `til reauth` (with --password-stdin in a script), then the command again.", .notAuthenticated)
        case TILError.invalidArgument(let reason):
            (message, status) = (reason, .usage)
        case let error as TILError:
            (message, status) = (error.description, .failed)
        case let error as UsageError:
            (message, status) = (error.message, .usage)
        case let error as PromptError:
            (message, status) = (error.description, .usage)
        case let error where TILCommand.exitCode(for: error) != .failure:
            // Anything ArgumentParser found wrong with the command line.
            (message, status) = (Self.oneLine(TILCommand.message(for: error)) + " (see `til --help`)", .usage)
        default:
            (message, status) = ("\(error)", .failed)
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    }
}
