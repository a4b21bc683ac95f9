import App
import ArgumentParser

/// Forgives a user's failed logins, so the throttle no longer answers 429 to their username
/// (failures counted against a client address stay: they may be someone else's guessing).
struct UsersUnlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Clear a user's failed logins, lifting the login throttle.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "The account's username.")
    var username: String

    func run() async throws {
        try await common.withTIL(seedsAdmin: false) { til in
            let forgiven = try await til.administration.unlock(username)
            print("\(username) unlocked; \(forgiven) failed login\(forgiven == 1 ? "" : "s") forgiven.")
        }
    }
}
