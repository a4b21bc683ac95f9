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
            \(hiddenFields)<label for="code">Code from your authenticator app</label>
            <input type="text" id="code" name="code" class="otp" autocomplete="one-time-code" inputmode="numeric" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required autofocus\(describedBy)>
            <p class="hint" id="code-hint">The 6 digits the app shows for TIL now.</p>
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
        guard offersRecoveryCode else { return .empty }
        return """
            <details class="alternative">
            <summary>Use a recovery code</summary>
            <form method="post" action="\(Self.action)">
            \(hiddenFields)<label for="recovery-code">Recovery code</label>
            <input type="text" id="recovery-code" name="recovery_code" class="otp" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required aria-describedby="recovery-hint">
            <p class="hint" id="recovery-hint">One of the codes you saved when you turned two-step sign-in on, like ABCD-EFGH-…. Each works once.</p>
            <button type="submit">Use this code</button>
            </form>
            </details>
            """
    }
}
