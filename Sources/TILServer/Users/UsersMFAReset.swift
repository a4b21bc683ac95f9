import App
import ArgumentParser

/// Removes a user's second factors (TOTP and its recovery codes, passkeys) when they have lost both the
/// authenticator and the codes, and ends every session of theirs. Verify who is asking first:
/// this is the one way around a second factor.
struct UsersMFAReset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mfa-reset", abstract: "Remove a user's second factors (TOTP, recovery codes, passkeys) and end their sessions.")

    @OptionGroup var account: AccountArguments

    func run() async throws {
        try await account.common.withTIL(seedsAdmin: false) { til in
            let reset = try await til.administration.resetSecondFactors(of: account.username)
            let ended = reset.endedSessions
            let what = reset.removedTOTP || reset.removedPasskeys > 0 ? "second factors removed" : "had no second factor"
            print("\(account.username): \(what); \(ended) session\(ended == 1 ? "" : "s") ended.")
        }
    }
}
