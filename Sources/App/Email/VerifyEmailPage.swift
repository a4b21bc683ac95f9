import Web

/// The pages of a verification link. The link's page only shows a button: opening it changes
/// nothing, so a mail scanner or a link preview that follows every link cannot confirm an
/// address for anyone. The button posts the token itself (no CSRF token: the person may not be
/// signed in here, and a forged post could only confirm the forger's own address).
enum VerifyEmailPage {
    static func confirm(token: String) -> HTML {
        PageLayout.render(title: "Confirm your email address", """
            <p>Press the button to confirm this email address for your TIL account.</p>
            <form method="post" action="\(VerifyEmailPages.path)">
            <input type="hidden" name="token" value="\(token)">
            <button type="submit">Confirm my email address</button>
            </form>
            <p class="hint">The link works once, for 24 hours.</p>
            """)
    }

    /// After the button, for a browser not signed in to the account (signed in, it goes back
    /// to the account page).
    static var confirmed: HTML {
        PageLayout.render(title: "Email address confirmed", """
            <p class="notice" role="status">Your email address is confirmed.</p>
            <p><a class="button" href="\(AccountPageController.path)">Go to your account</a></p>
            """)
    }
}
