import Foundation
import TILWire
import Web

/// The account page's passkeys: each one's name, when it was added and last used, with Rename
/// and Remove (plain forms); and the form `#passkey-add` the passkeys script drives (hidden
/// without it: adding a passkey needs the browser's WebAuthn).
struct PasskeysSection: Sendable {
    var passkeys: [PasskeySummary]
    var csrfToken: String

    var html: HTML {
        AccountSection.render(
            id: "passkeys", heading: "Passkeys",
            lead: "<p class=\"hint\">Sign in with your device's fingerprint, face or PIN instead of your password.</p>\n",
            items: passkeys.map(item), empty: "No passkeys yet.", after: """
                <form method="post" action="/account/passkeys" id="passkey-add" hidden>
                <input type="hidden" name="csrf_token" value="\(csrfToken)">
                <label for="passkey-name">Name for a new passkey</label>
                <input type="text" id="passkey-name" name="name" maxlength="64" required>
                <button type="submit">Add a passkey</button>
                </form>

                """)
    }

    private func item(_ passkey: PasskeySummary) -> HTML {
        let id = "passkey-\(passkey.id.uuidString.lowercased())"
        let used: HTML = passkey.lastUsedAt.map { " · last used \(PageDate.html($0))" } ?? " · never used"
        let path = "/account/passkeys/\(passkey.id.uuidString.lowercased())"
        let button = ActionButton(action: path + "/remove", label: "Remove", csrfToken: csrfToken, describedBy: id)
        return """
            <li class="item">
            <div class="item-text">
            <p class="item-title" id="\(id)">\(passkey.name)</p>
            <p class="meta">Added \(PageDate.html(passkey.createdAt))\(used)</p>
            <details class="alternative">
            <summary>Rename</summary>
            <form method="post" action="\(path)/rename">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="\(id)-name">New name</label>
            <input type="text" id="\(id)-name" name="name" value="\(passkey.name)" maxlength="64" required aria-describedby="\(id)">
            <button type="submit" class="secondary">Rename</button>
            </form>
            </details>
            </div>
            \(button.html)
            </li>
            """
    }
}
