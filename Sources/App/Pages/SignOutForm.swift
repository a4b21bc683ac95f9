import Web

/// The confirmation before signing out: a GET must never end a session (a link or an image
/// elsewhere could), so the page asks, and its form's POST, with the CSRF token bound to the
/// session, does it.
struct SignOutForm: Sendable {
    var csrfToken: String
    var username: String
    /// `/logout` or `/oauth/logout`: the form posts back where it was shown.
    var action: String

    var html: HTML {
        PageLayout.render(title: "Sign out", """
            <p>You are signed in to TIL as <strong>\(username)</strong>.</p>
            <form method="post" action="\(action)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <button type="submit">Sign out</button>
            </form>
            """)
    }
}
