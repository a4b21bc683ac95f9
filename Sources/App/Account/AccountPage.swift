import Web

/// `GET /account`: who is signed in, with a way out, then one section per thing the person
/// manages: sessions, applications, the password, the authenticator app (TOTP) and passkeys. Every action
/// is a button posting a form with the session's CSRF token; the token is also in the head
/// (`<meta name="csrf-token">`), where the passkeys script reads it for its `X-CSRF-Token`.
struct AccountPage: Sendable {
    var username: String
    var csrfToken: String
    var notice: AccountNotice?
    var sections: [HTML]

    var html: HTML {
        let status: HTML = notice?.html ?? .empty
        let signOut = ActionButton(action: "/logout", label: "Sign out", csrfToken: csrfToken)
        return PageLayout.render(title: "Your account", head: head, width: .wide, """
            <div class="account-bar">
            <p>Signed in as <strong>\(username)</strong></p>
            \(signOut.html)
            </div>
            \(status)
            \(HTML.joined(sections, separator: "\n"))
            """)
    }

    private var head: HTML {
        PasskeysScript.head(csrfToken: csrfToken)
    }
}
