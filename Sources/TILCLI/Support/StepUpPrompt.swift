import Terminal
import TILClient

/// How `til` answers a step-up challenge (a sensitive change on a session signed in longer
/// ago than the server's `REAUTH_WINDOW`): at the terminal, the password unseen, then — when
/// the account has TOTP on — the app's code (or a recovery code). With no terminal nothing is
/// asked: the command fails saying to run `til reauth --password-stdin` first, which a script
/// can do.
enum StepUpPrompt {
    @Sendable static func answer(_ need: ReauthenticationNeed) async throws -> ReauthenticationAnswer? {
        do {
            guard need.needsSecondFactor else {
                let password = try Prompt.ask("\(need.description.prefix(1).uppercased() + need.description.dropFirst()).\nPassword: ", secret: true)
                return password.isEmpty ? nil : ReauthenticationAnswer(password: password)
            }
            // The password was given a moment ago: an empty one sends it again.
            return ReauthenticationAnswer(password: "", proof: try SecondFactorOptions.ask(otherwise: "til reauth"))
        } catch is PromptError {
            return nil
        }
    }
}
