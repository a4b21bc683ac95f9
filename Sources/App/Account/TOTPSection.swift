import Web

/// The account page's section for the authenticator app (TOTP): off, a button that starts an
/// enrolment; on, how many recovery codes are left and two forms that need the current
/// password and a code (from the app, or a recovery code): new recovery codes, and turning
/// two-step sign-in off. Both forms sit in disclosures, so the section stays short.
struct TOTPSection: Sendable {
    var isOn: Bool
    var recoveryCodesLeft: Int
    var csrfToken: String
    /// A refused form of this section: shown open, with the reason.
    var failure: Failure?

    /// The section's forms that need a proof.
    enum Form: String, Sendable { case recoveryCodes = "recovery", disable }

    struct Failure: Sendable {
        var form: Form
        var message: String
    }

    static let heading: HTML = #"<h2 id="totp-heading">Two-step sign-in</h2>"#

    var html: HTML {
        """
        <section aria-labelledby="totp-heading">
        \(Self.heading)
        \(isOn ? on : off)
        </section>
        """
    }

    private var off: HTML {
        """
        <p>Off. Turn it on to ask for a code from an authenticator app after your password.</p>
        <form method="post" action="/account/totp">
        <input type="hidden" name="csrf_token" value="\(csrfToken)">
        <button type="submit">Set up an authenticator app</button>
        </form>
        """
    }

    private var on: HTML {
        let left: HTML = recoveryCodesLeft == 1 ? "1 recovery code" : "\(recoveryCodesLeft) recovery codes"
        let warning: HTML = recoveryCodesLeft < 3 ? " Make new ones before you run out." : .empty
        return """
            <p><span class="badge on">On</span> Sign-in asks for a code from your authenticator app. \(left) left.\(warning)</p>
            \(proofForm(.recoveryCodes, action: "/account/recovery-codes", summary: "Make new recovery codes", button: "Make new codes", style: .primary))
            \(proofForm(.disable, action: "/account/totp/disable", summary: "Turn two-step sign-in off", button: "Turn off", style: .danger))
            """
    }

    /// A form that needs the current password and a code, behind a disclosure.
    private func proofForm(_ form: Form, action: String, summary: String, button: String, style: ActionButton.Style) -> HTML {
        let id = form.rawValue
        let buttonClass: HTML = style == .primary ? .empty : " class=\"\(style.rawValue)\""
        let failed = failure.flatMap { $0.form == form ? $0.message : nil }
        let alert: HTML = failed.map { "<p class=\"error\" role=\"alert\" id=\"\(id)-error\">\($0)</p>\n" } ?? .empty
        let invalid: HTML = failed == nil ? .empty : " aria-describedby=\"\(id)-error\" aria-invalid=\"true\""
        return """
            <details class="alternative"\(failed == nil ? "" : " open")>
            <summary>\(summary)</summary>
            \(alert)<form method="post" action="\(action)">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="\(id)-password">Current password</label>
            <input type="password" id="\(id)-password" name="current_password" autocomplete="current-password" required\(invalid)>
            <label for="\(id)-code">Code from your app, or a recovery code</label>
            <input type="text" id="\(id)-code" name="code" class="otp" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required\(invalid)>
            <button type="submit"\(buttonClass)>\(button)</button>
            </form>
            </details>
            """
    }
}
