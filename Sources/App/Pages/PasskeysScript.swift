import Web

/// The one script of TIL's pages, served by the passkeys endpoints (`GET /assets/passkeys.js`)
/// and loaded from TIL's own origin (CSP `script-src 'self'`, never inline). Its calls carry
/// the page's CSRF token, which it reads from `<meta name="csrf-token">`, as `X-CSRF-Token`.
/// Every page works without it: it only un-hides and drives the passkey buttons.
enum PasskeysScript {
    static let path = "/assets/passkeys.js"

    /// The page's head elements: the CSRF meta and the script tag.
    static func head(csrfToken: String) -> HTML {
        """
        <meta name="csrf-token" content="\(csrfToken)">
        <script src="\(path)" defer></script>

        """
    }
}
