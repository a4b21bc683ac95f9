import Web

/// `GET /reset-password?token=…`, the page a reset mail links to: the new password, once
/// (`autocomplete="new-password"`, so a password manager offers to make and keep one, under
/// the account's username, given in a read-only field for it). Showing it spends nothing: a
/// link scanner that opens the page leaves the link working. The form carries the token and
/// the CSRF token of the pre-login cookie.
struct ResetPasswordForm: Sendable {
    var csrfToken: String
    var token: String
    var username: String
    var error: String?

    var html: HTML {
        let alert = ResetFormAlert(message: error)
        let describedBy = alert.describing(hint: "password-hint")
        return PageLayout.render(title: "Choose a new password", """
            \(alert.html)<form method="post" action="\(PasswordResetPages.resetPath)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <input type="hidden" name="token" value="\(token)">
            <label for="username">Username</label>
            <input type="text" id="username" name="username" value="\(username)" autocomplete="username" readonly>
            <label for="new-password">New password</label>
            <input type="password" id="new-password" name="new_password" autocomplete="new-password" minlength="\(PasswordRules.byteCount.lowerBound)" required autofocus\(describedBy)>
            <p class="hint" id="password-hint">\(PasswordRules.byteCount.lowerBound) to \(PasswordRules.byteCount.upperBound) bytes. Every session of the account ends when it is set.</p>
            <button type="submit">Set the new password</button>
            </form>
            """)
    }
}
