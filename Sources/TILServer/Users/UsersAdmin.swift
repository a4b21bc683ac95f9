import App
import ArgumentParser

/// Grants or revokes the administrator role, the only one that may hold `clients:write`
/// (registering OAuth clients). Revoking ends the user's sessions that hold that scope.
struct UsersAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Grant or revoke a user's administrator role (the clients:write scope).")

    @OptionGroup var account: AccountArguments

    @Flag(help: "Make the user an administrator.")
    var grant = false

    @Flag(help: "Take the role away, ending their sessions that hold clients:write.")
    var revoke = false

    func validate() throws {
        guard grant != revoke else { throw ValidationError("Give exactly one of --grant or --revoke.") }
    }

    func run() async throws {
        try await account.common.withTIL(seedsAdmin: false) { til in
            let ended = try await til.administration.setAdmin(grant, of: account.username)
            if grant {
                print("\(account.username) is an administrator.")
            } else {
                print("\(account.username) is no longer an administrator; \(ended) session\(ended == 1 ? "" : "s") ended.")
            }
        }
    }
}
