import Web

/// `GET /forgot-password`: the login (a username or an email address) a reset link is asked
/// for, with the CSRF token of the pre-login cookie. Its answer never says whether the login
/// names an account (`PasswordResetPages.linkSent`).
struct ForgotPasswordForm: Sendable {
    var csrfToken: String
    /// Kept after a refusal, so it need not be typed again.
    var login = ""
    var error: String?

    var html: HTML {
        let alert = ResetFormAlert(message: error)
        let describedBy = alert.describing(hint: "login-hint")
        return PageLayout.render(title: "Forgot your password?", """
            \(alert.html)<form method="post" action="\(PasswordResetPages.forgotPath)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="login">Username or email address</label>
            <input type="text" id="login" name="login" value="\(login)" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="\(PasswordResetRequests.maxLoginBytes)" required autofocus\(describedBy)>
            <p class="hint" id="login-hint">If your account has a verified email address, a link to choose a new password goes there.</p>
            <button type="submit">Send me a link</button>
            </form>
            <p><a href="/login">Back to sign in</a></p>
            """)
    }
}
