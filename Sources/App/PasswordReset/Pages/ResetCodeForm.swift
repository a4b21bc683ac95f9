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
        let alert = ResetFormAlert(message: error)
        let describedBy = alert.describing(hint: "code-hint")
        return PageLayout.render(title: "Confirm it is you", """
            \(alert.html)<p>Your account has two-step sign-in, so a new password needs your second factor too.</p>
            <form method="post" action="\(PasswordResetPages.codePath)">
            \(hiddenFields)\(SecondFactorFields.code(describedBy: describedBy))
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
        offersRecoveryCode ? SecondFactorFields.recoveryCodeForm(action: PasswordResetPages.codePath, hiddenFields: hiddenFields) : .empty
    }
}
