import TILWire
import Web

/// The one time a new personal access token is shown: only its digest is stored, so this page
/// is its only copy, and it says so. A read-only field holds the value, so it can be selected
/// whole and copied (no script needed); the wide layout fits all 51 characters.
struct NewTokenPage: Sendable {
    var token: NewPersonalAccessToken

    var html: HTML {
        let scopes = HTML.joined(token.scopes.map { "<code>\($0.rawValue)</code>" }, separator: " ")
        return PageLayout.render(title: "Copy your new token", width: .wide, """
            <p class="notice" role="status">Token “\(token.name)” created.</p>
            <p id="new-token-hint">Copy it now and keep it somewhere safe, such as your CI's secret store: this is the only time TIL shows it.</p>
            <label for="new-token">Personal access token</label>
            <input type="text" id="new-token" class="token" value="\(token.token)" readonly autocomplete="off" spellcheck="false" aria-describedby="new-token-hint">
            <p class="meta">\(scopes) · expires \(PageDate.html(token.expiresAt))</p>
            <p><a class="button" href="\(AccountPageController.path)">Done</a></p>
            """)
    }
}
