import Web

/// The account page's password form: the current password, the new one twice, and with TOTP
/// on a code from the app (or a recovery code) — what `PUT /api/users/me/password` asks, so
/// the form is itself a re-authentication. Inside a disclosure, so the page stays short; open,
/// with the reason, after a refusal. Every other session ends with the change.
struct PasswordSection: Sendable {
    var totpOn: Bool
    var csrfToken: String
    /// Why the last attempt was refused, shown in the open form.
    var failure: String?

    var html: HTML {
        let alert: HTML = failure.map { "<p class=\"error\" role=\"alert\" id=\"password-error\">\($0)</p>\n" } ?? .empty
        let invalid: HTML = failure == nil ? .empty : " aria-describedby=\"password-error\" aria-invalid=\"true\""
        let code: HTML = totpOn ? """

            <label for="password-code">Code from your app, or a recovery code</label>
            <input type="text" id="password-code" name="code" class="otp" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required\(invalid)>
            """ : .empty
        return """
            <section aria-labelledby="password-heading">
            <h2 id="password-heading">Password</h2>
            <details class="alternative"\(failure == nil ? "" : " open")>
            <summary>Change your password</summary>
            \(alert)<form method="post" action="/account/password">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="password-current">Current password</label>
            <input type="password" id="password-current" name="current_password" autocomplete="current-password" required\(invalid)>
            <label for="password-new">New password</label>
            <input type="password" id="password-new" name="new_password" autocomplete="new-password" minlength="\(PasswordRules.byteCount.lowerBound)" required aria-describedby="password-rules">
            <p class="hint" id="password-rules">At least \(PasswordRules.byteCount.lowerBound) characters, and not a common password. Your other sessions are signed out.</p>
            <label for="password-repeat">New password again</label>
            <input type="password" id="password-repeat" name="repeat_password" autocomplete="new-password" required>\(code)
            <button type="submit">Change password</button>
            </form>
            </details>
            </section>
            """
    }
}
