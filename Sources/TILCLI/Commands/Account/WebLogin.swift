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
        if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty {
            open(authorization.verificationURIComplete ?? authorization.verificationURI, with: browser)
        }
        let (token, username) = try await client.finishWebLogin(authorization)
        let summary = LoginSummary(
            server: client.server.absoluteString, username: username, userID: token.user.id, session: token.id,
            scopes: token.scopes, expiresAt: token.expiresAt, refreshExpiresAt: token.refreshExpiresAt)
        if json { return try context.output.printJSON(summary) }
        context.output.line(
            "✓ Logged in to \(summary.server) as \(username) through the browser (scopes: \(token.scopes.map(\.rawValue).joined(separator: " "))).")
    }

    /// Runs `$BROWSER url` (the variable may hold arguments, as with `xdg-open`'s), without
    /// waiting for it: a browser may stay open for as long as it likes.
    private func open(_ url: String, with browser: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec $BROWSER \"$0\"", url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            context.output.warn("could not run $BROWSER (\(browser)): \(error.localizedDescription)")
        }
    }
}
