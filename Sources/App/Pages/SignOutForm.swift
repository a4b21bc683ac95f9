import Web

/// The confirmation before signing out: a GET must never end a session (a link or an image
/// elsewhere could), so the page asks, and its form's POST, with the CSRF token bound to the
/// session, does it. From an application's logout (`/oauth/logout`), the page names it and
/// its form carries the request on.
struct SignOutForm: Sendable {
    var csrfToken: String
    var username: String
    /// `/logout` or `/oauth/logout`: the form posts back where it was shown.
    var action: String
    /// The application that sent the browser here, if any.
    var clientName: String? = nil
    /// Hidden fields: the logout request's `client_id`, `post_logout_redirect_uri`, `state`.
    var carried: [(name: String, value: String)] = []

    /// On TIL's own sign-out page (not an application's logout): the way to the account page.
    private var accountLink: HTML {
        clientName == nil && carried.isEmpty ? "<p><a href=\"\(AccountPageController.path)\">Your account</a>: sessions, applications, two-step sign-in.</p>" : .empty
    }

    var html: HTML {
        let hidden = carried.map { pair -> HTML in "<input type=\"hidden\" name=\"\(pair.name)\" value=\"\(pair.value)\">\n" }
        return PageLayout.render(title: "Sign out", client: clientName, """
            <p>You are signed in to TIL as <strong>\(username)</strong>.</p>
            <form method="post" action="\(action)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            \(HTML.joined(hidden, separator: ""))<button type="submit">Sign out</button>
            </form>
            \(accountLink)
            """)
    }
}
