import App
import ArgumentParser

/// Forgives a user's failed logins, so the throttle no longer answers 429 to their username
/// (failures counted against a client address stay: they may be someone else's guessing).
struct UsersUnlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Clear a user's failed logins, lifting the login throttle.")

    @OptionGroup var account: AccountArguments

    func run() async throws {
        try await account.common.withTIL(seedsAdmin: false) { til in
            let forgiven = try await til.administration.unlock(account.username)
            print("\(account.username) unlocked; \(forgiven) failed login\(forgiven == 1 ? "" : "s") forgiven.")
        }
    }
}
