import Foundation
import TILClient

/// `til login --web`, the way `gh auth login` does it: the one-time code and the page to type
/// it on (on stderr, so `--json` output stays clean), the page opened with `$BROWSER` when
/// set, then polling until the code is approved or denied in the browser.
struct WebLogin {
    let context: Context
    let json: Bool

    func run() async throws {
        let client = context.client
        let authorization = try await client.startWebLogin()
        context.output.note("! First copy your one-time code: \(authorization.userCode)")
        context.output.note("Open this URL in your browser: \(authorization.verificationURI)")
        Browser.open(authorization.verificationURIComplete ?? authorization.verificationURI, output: context.output)
        let (token, username) = try await client.finishWebLogin(authorization)
        let summary = LoginSummary(server: client.server, username: username, token: token)
        try summary.print(to: context.output, json: json, "✓ Logged in to \(summary.server) as \(username) through the browser (scopes: \(summary.scopeNames)).")
    }
}
