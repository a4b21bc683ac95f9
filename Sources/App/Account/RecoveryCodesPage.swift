import Web

/// The one time a set of recovery codes is shown: after TOTP is confirmed, and after new codes
/// are made. Only their digests are stored, so this page is their only copy; it says so.
struct RecoveryCodesPage: Sendable {
    var codes: [String]
    /// Whether the set is the first (TOTP just turned on) or a replacement.
    var isNewSet: Bool

    var html: HTML {
        let items = codes.map { code -> HTML in "<li><code>\(code)</code></li>" }
        let lead: HTML = isNewSet
            ? "<p>Your old recovery codes no longer work. Save these instead.</p>"
            : "<p class=\"notice\" role=\"status\">Two-step sign-in is on.</p>"
        return PageLayout.render(title: "Save your recovery codes", """
            \(lead)
            <p>If you lose your authenticator app, each of these codes signs you in once. Keep them somewhere safe: this is the only time TIL shows them.</p>
            <ol class="codes" aria-label="Recovery codes">
            \(HTML.joined(items, separator: "\n"))
            </ol>
            <p><a class="button" href="\(AccountPageController.path)">Done</a></p>
            """)
    }
}
