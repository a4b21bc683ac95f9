import Web

/// The consent page of a third-party client: who asks, for which user, and each scope in
/// words. Approve and deny are two buttons of one form (`decision`), which posts to TIL's own
/// `/oauth/consent` with the CSRF token bound to the browser session and the request carried
/// in hidden fields (checked afresh when posted).
struct ConsentForm: Sendable {
    var clientName: String
    var username: String
    /// Each scope's name and its words.
    var scopes: [(name: String, words: String)]
    var csrfToken: String
    var parameters: [(name: String, value: String)]
    /// Where the decision posts: the authorization endpoint's, or the device flow's.
    var action = "/oauth/consent"
    /// A line above the buttons (the device flow names the code being approved).
    var note: HTML = .empty

    var html: HTML {
        let items = scopes.map { scope -> HTML in "<li>\(scope.words) <code>\(scope.name)</code></li>" }
        let hidden = parameters.map { pair -> HTML in "<input type=\"hidden\" name=\"\(pair.name)\" value=\"\(pair.value)\">" }
        return PageLayout.render(title: "Allow access?", client: clientName, """
            <p><strong>\(clientName)</strong> asks to use your TIL account <strong>\(username)</strong> to:</p>
            <ul class="scopes">
            \(HTML.joined(items, separator: "\n"))
            </ul>
            \(note)<form method="post" action="\(action)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            \(HTML.joined(hidden, separator: "\n"))
            <button type="submit" name="decision" value="approve">Allow</button>
            <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
            </form>
            <p>You can withdraw this later from your account's list of applications.</p>
            """)
    }
}
