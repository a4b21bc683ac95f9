import Foundation
import TILWire
import Web

/// The account page's personal access tokens: each one's name, scopes, expiry and last use,
/// with a Revoke button; then a form that makes one (a name, the scopes as checkboxes, an
/// expiry to choose), whose answer is the page that shows the new token once (`NewTokenPage`).
struct TokensSection: Sendable {
    var tokens: [PersonalAccessToken]
    var csrfToken: String
    /// `PAT_MAX_TTL`: the longest expiry offered.
    var maxLifetime: Duration

    var html: HTML {
        AccountSection.render(
            id: "tokens", heading: "Personal access tokens",
            lead: """
                <p class="hint">Tokens for scripts and CI, sent as <code>Authorization: Bearer til_pat_…</code> instead of \
                your password. They cannot manage your account, and they stay when you sign out everywhere or change your password.</p>

                """,
            items: tokens.map(item), empty: "No personal access tokens.", after: form)
    }

    private func item(_ token: PersonalAccessToken) -> HTML {
        let id = "token-\(token.id.uuidString.lowercased())"
        let scopes = HTML.joined(token.scopes.map { "<code>\($0.rawValue)</code>" }, separator: " ")
        let used: HTML = token.lastUsedAt.map { at in
            let from: HTML = token.lastUsedFrom.map { " from \($0)" } ?? .empty
            return "last used \(PageDate.html(at))\(from)"
        } ?? "never used"
        let button = ActionButton(
            action: "/account/tokens/\(token.id.uuidString.lowercased())/revoke", label: "Revoke", csrfToken: csrfToken,
            describedBy: id, style: .danger)
        return """
            <li class="item">
            <div class="item-text">
            <p class="item-title" id="\(id)">\(token.name)</p>
            <p class="meta">\(scopes) · expires \(PageDate.html(token.expiresAt))</p>
            <p class="meta">Created \(PageDate.html(token.createdAt)) · \(used)</p>
            </div>
            \(button.html)
            </li>
            """
    }

    private var form: HTML {
        let boxes = PersonalAccessTokenDraft.allowedScopes.map { scope -> HTML in
            let id = "token-scope-\(scope.rawValue.replacingOccurrences(of: ":", with: "-"))"
            return """
                <label class="choice" for="\(id)"><input type="checkbox" id="\(id)" name="scope" value="\(scope.rawValue)"> \
                <code>\(scope.rawValue)</code></label>
                """
        }
        let options = Self.expiries(upTo: maxLifetime).enumerated().map { index, expiry -> HTML in
            "<option value=\"\(expiry.seconds)\"\(index == 0 ? " selected" : "")>\(expiry.label)</option>"
        }
        return """
            <details class="alternative">
            <summary>Create a token</summary>
            <form method="post" action="/account/tokens">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="token-name">Name</label>
            <input type="text" id="token-name" name="name" maxlength="\(PersonalAccessTokenDraft.maxNameCharacters)" required aria-describedby="token-name-hint">
            <p class="hint" id="token-name-hint">What it is for, such as “CI deploys”.</p>
            <fieldset>
            <legend>What it may do</legend>
            \(HTML.joined(boxes, separator: "\n"))
            </fieldset>
            <label for="token-expiry">Expires in</label>
            <select id="token-expiry" name="expires_in">
            \(HTML.joined(options, separator: "\n"))
            </select>
            <button type="submit">Create token</button>
            </form>
            </details>

            """
    }

    /// The expiries the form offers: 30 days first, then 7, 90 days and a year, those within
    /// `PAT_MAX_TTL`; only that maximum when it is shorter than all of them.
    static func expiries(upTo maxLifetime: Duration) -> [(seconds: Int, label: String)] {
        let longest = Int(maxLifetime.components.seconds)
        let offered = [(30, "30 days"), (7, "7 days"), (90, "90 days"), (365, "1 year")]
            .map { (seconds: $0.0 * 86400, label: $0.1) }.filter { $0.seconds <= longest }
        return offered.isEmpty ? [(longest, "\(longest) seconds")] : offered
    }
}
