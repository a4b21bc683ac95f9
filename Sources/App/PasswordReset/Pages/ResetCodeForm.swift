import Web

/// The reset's second step on the page, for an account with two-step sign-in: the code of
/// the authenticator app, or behind a disclosure that needs no script a recovery code. Both
/// post to `/reset-password/mfa` with the link's token, the mfaToken bound to this reset (the
/// new password waits on the server, never in the page) and the CSRF token.
struct ResetCodeForm: Sendable {
    var csrfToken: String
    var token: String
    var mfaToken: String
    var error: String?
    /// Whether the account has recovery codes left (the disclosure is shown only then).
    var offersRecoveryCode = true

    var html: HTML {
        let describedBy: HTML = error == nil ? " aria-describedby=\"code-hint\"" : " aria-describedby=\"reset-error code-hint\" aria-invalid=\"true\""
        let alert: HTML = error.map { "<p class=\"error\" role=\"alert\" id=\"reset-error\">\($0)</p>\n" } ?? .empty
        return PageLayout.render(title: "Confirm it is you", """
            \(alert)<p>Your account has two-step sign-in, so a new password needs your second factor too.</p>
            <form method="post" action="\(PasswordResetPages.codePath)">
            \(hiddenFields)<label for="code">Code from your authenticator app</label>
            <input type="text" id="code" name="code" class="otp" autocomplete="one-time-code" inputmode="numeric" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required autofocus\(describedBy)>
            <p class="hint" id="code-hint">The 6 digits the app shows for TIL now.</p>
            <button type="submit">Set the new password</button>
            </form>
            \(recoveryForm)
            """)
    }

    private var hiddenFields: HTML {
        """
        <input type="hidden" name="csrf_token" value="\(csrfToken)">
        <input type="hidden" name="token" value="\(token)">
        <input type="hidden" name="mfa_token" value="\(mfaToken)">

        """
    }

    private var recoveryForm: HTML {
        guard offersRecoveryCode else { return .empty }
        return """
            <details class="alternative">
            <summary>Use a recovery code</summary>
            <form method="post" action="\(PasswordResetPages.codePath)">
            \(hiddenFields)<label for="recovery-code">Recovery code</label>
            <input type="text" id="recovery-code" name="recovery_code" class="otp" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required aria-describedby="recovery-hint">
            <p class="hint" id="recovery-hint">One of the codes you saved when you turned two-step sign-in on. Each works once.</p>
            <button type="submit">Use this code</button>
            </form>
            </details>
            """
    }
}
