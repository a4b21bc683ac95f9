import Web

/// The fields of a code step, the same wherever a second factor is asked for (the sign-in's
/// second step, a password reset's): the authenticator app's code (`one-time-code`, a numeric
/// keyboard), and a recovery code in a form of its own behind a disclosure that needs no script.
enum SecondFactorFields {
    /// The code's label, field and hint (`code-hint`); `describedBy` ties them to an error.
    static func code(describedBy: HTML) -> HTML {
        """
        <label for="code">Code from your authenticator app</label>
        <input type="text" id="code" name="code" class="otp" autocomplete="one-time-code" inputmode="numeric" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required autofocus\(describedBy)>
        <p class="hint" id="code-hint">The 6 digits the app shows for TIL now.</p>
        """
    }

    /// The recovery code's form, posting to `action` with `hiddenFields`, inside its disclosure.
    static func recoveryCodeForm(action: String, hiddenFields: HTML) -> HTML {
        """
        <details class="alternative">
        <summary>Use a recovery code</summary>
        <form method="post" action="\(action)">
        \(hiddenFields)<label for="recovery-code">Recovery code</label>
        <input type="text" id="recovery-code" name="recovery_code" class="otp" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required aria-describedby="recovery-hint">
        <p class="hint" id="recovery-hint">One of the codes you saved when you turned two-step sign-in on, like ABCD-EFGH-…. Each works once.</p>
        <button type="submit">Use this code</button>
        </form>
        </details>
        """
    }
}
