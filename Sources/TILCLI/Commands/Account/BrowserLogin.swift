import Foundation
import TILClient

/// `til login --browser`: the authorization-code flow of a native app (RFC 8252) as `til-cli`.
/// A one-shot listener on 127.0.0.1 with a port the system picks is the redirect URI; the
/// authorization URL is printed (stderr, so `--json` stays clean) and opened with `$BROWSER`
/// when set; the person signs in and consents on the server's pages; the listener catches the
/// redirect, and the client checks it, exchanges the code and keeps the pair.
struct BrowserLogin {
    let context: Context
    let json: Bool
    /// Nil: every scope til-cli is registered for.
    let scopes: Set<Scope>?
    let timeout: Duration

    func run() async throws {
        let client = context.client
        let listener = try LoopbackListener()
        let signIn = try await client.beginBrowserSignIn(redirectURI: listener.redirectURI, scopes: scopes)
        context.output.note("Sign in in your browser: \(signIn.url.absoluteString)")
        if !Browser.open(signIn.url.absoluteString, output: context.output) { context.output.note("(Open that URL: $BROWSER is not set.)") }
        context.output.note("Waiting for the browser at \(listener.redirectURI.absoluteString) ...")
        let callback: URL
        do {
            callback = try await listener.callback(timeout: timeout)
        } catch let error as ListenerError {
            throw TILError.signInFailed(error: "no_callback", reason: error.description)
        }
        let signedIn = try await client.finishBrowserSignIn(signIn, callback: callback)
        let summary = LoginSummary(server: client.server, username: signedIn.username, token: signedIn.token)
        try summary.print(to: context.output, json: json, "✓ Logged in to \(summary.server) as \(signedIn.username) in the browser (scopes: \(summary.scopeNames)).")
    }
}
