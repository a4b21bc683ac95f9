import Web

/// The sign-in form, the same on `/login` and inside an authorization request: a username
/// and a password with their labels and autocomplete hints, the CSRF token, and where to go
/// afterwards. It posts to `/login`, TIL's own path; an error is announced (`role="alert"`)
/// and tied to the fields it concerns. It never says whether a username exists. Below it, a
/// "Sign in with a passkey" button, `hidden` until the passkeys script finds WebAuthn in the
/// browser (with the username typed, if any, it offers that user's passkeys; else any). A link
/// leads to `/forgot-password` (a reset link by mail).
struct LoginForm: Sendable {
    var csrfToken: String
    var returnTo: String?
    /// Kept after a failed attempt, so only the password is typed again.
    var username = ""
    var error: String?
    /// Why the form is shown to a browser already signed in (a change that needs a recent
    /// sign-in), announced politely (`role="status"`).
    var notice: String?
    /// The OAuth client the login is for, named under the heading.
    var clientName: String?

    var html: HTML {
        let describedBy: HTML = error == nil ? .empty : " aria-describedby=\"login-error\" aria-invalid=\"true\""
        let alert: HTML = error.map { "<p class=\"error\" role=\"alert\" id=\"login-error\">\($0)</p>\n" }
            ?? notice.map { "<p class=\"notice\" role=\"status\">\($0)</p>\n" } ?? .empty
        let returnField: HTML = returnTo.map { "<input type=\"hidden\" name=\"return_to\" value=\"\($0)\">\n" } ?? .empty
        return PageLayout.render(title: "Sign in", client: clientName, head: PasskeysScript.head(csrfToken: csrfToken), """
            \(alert)<form method="post" action="/login">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            \(returnField)<label for="username">Username</label>
            <input type="text" id="username" name="username" value="\(username)" autocomplete="username" autocapitalize="none" spellcheck="false" required\(describedBy)>
            <label for="password">Password</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required\(describedBy)>
            <button type="submit">Sign in</button>
            </form>
            <p><a href="\(PasswordResetPages.forgotPath)">Forgot your password?</a></p>
            <p><button type="button" id="passkey-sign-in" class="secondary" hidden>Sign in with a passkey</button></p>
            """)
    }
}
