import Web

/// The sign-in's second step, after a correct password for an account with two-step sign-in:
/// the code from the authenticator app (`code`, `autocomplete="one-time-code"`, a numeric
/// keyboard), or, behind a disclosure that needs no script, a recovery code. Both post to
/// `/login/mfa` with the login's mfaToken and the CSRF token of the pre-login cookie. The
/// passkey button stays `hidden` unless the passkeys script finds WebAuthn in the browser.
struct SecondStepForm: Sendable {
    var csrfToken: String
    var mfaToken: String
    var returnTo: String?
    var error: String?
    /// The OAuth client the login is for, named under the heading.
    var clientName: String?
    /// Whether the account has recovery codes left (the disclosure is shown only then).
    var offersRecoveryCode = true
    /// Whether the account has passkeys, which the script may offer.
    var offersPasskey = false

    static let action = "/login/mfa"

    var html: HTML {
        let describedBy: HTML = error == nil ? " aria-describedby=\"code-hint\"" : " aria-describedby=\"mfa-error code-hint\" aria-invalid=\"true\""
        let alert: HTML = error.map { "<p class=\"error\" role=\"alert\" id=\"mfa-error\">\($0)</p>\n" } ?? .empty
        return PageLayout.render(title: "Two-step sign-in", client: clientName, head: offersPasskey ? PasskeysScript.head(csrfToken: csrfToken) : .empty, """
            \(alert)<p>Your password is right. Now open your authenticator app.</p>
            <form method="post" action="\(Self.action)">
            \(hiddenFields)\(SecondFactorFields.code(describedBy: describedBy))
            <button type="submit">Verify</button>
            </form>
            \(passkeyButton)\(recoveryForm)
            """)
    }

    /// The fields both forms carry.
    private var hiddenFields: HTML {
        let returnField: HTML = returnTo.map { "<input type=\"hidden\" name=\"return_to\" value=\"\($0)\">\n" } ?? .empty
        return """
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <input type="hidden" name="mfa_token" value="\(mfaToken)">
            \(returnField)
            """
    }

    private var passkeyButton: HTML {
        guard offersPasskey else { return .empty }
        return """
            <p><button type="button" id="passkey-second-factor" class="secondary" data-mfa-token="\(mfaToken)"\(nextAttribute) hidden>Use a passkey instead</button></p>

            """
    }

    private var nextAttribute: HTML { " data-next=\"\(returnTo ?? AccountPageController.path)\"" }

    private var recoveryForm: HTML {
        offersRecoveryCode ? SecondFactorFields.recoveryCodeForm(action: Self.action, hiddenFields: hiddenFields) : .empty
    }
}
