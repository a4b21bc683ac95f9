import TILWire
import Web

/// The account page's email address: the address in force and whether it is verified, a
/// change waiting for its link, a button that sends the link again, and a form to change (or
/// add) the address with the current password, behind a disclosure that opens with the reason
/// when the form was refused.
struct EmailSection: Sendable {
    var profile: AccountProfile
    var csrfToken: String
    /// A refused form of this section: shown with the reason.
    var failure: Failure?

    /// The section's forms.
    enum Form: Sendable { case change, resend }

    struct Failure: Sendable {
        var form: Form
        var message: String
    }

    var html: HTML {
        """
        <section aria-labelledby="email-heading">
        <h2 id="email-heading">Email address</h2>
        \(current)
        \(pending)\(resend)\(changeForm)
        </section>
        """
    }

    private var current: HTML {
        guard let email = profile.email else {
            return "<p>No email address yet. Add one to hear about changes to your account.</p>"
        }
        if profile.emailVerified == true {
            return "<p><span class=\"badge on\">Verified</span> <strong>\(email)</strong></p>"
        }
        return """
            <p><span class="badge off">Not verified</span> <strong>\(email)</strong></p>
            <p class="hint">Follow the link we sent to it to confirm that the address is yours.</p>
            """
    }

    private var pending: HTML {
        guard let pending = profile.pendingEmail else { return .empty }
        return """
            <p>Waiting for you to confirm <strong>\(pending)</strong>: follow the link we sent there. \
            Until then your address stays as it is.</p>

            """
    }

    /// Sends the link again, while something waits for one.
    private var resend: HTML {
        guard profile.pendingEmail != nil || (profile.email != nil && profile.emailVerified != true) else { return .empty }
        let button = ActionButton(
            action: "/account/email/verification", label: "Send the link again", csrfToken: csrfToken, describedBy: "email-heading")
        return "\(alert(for: .resend))\(button.html)\n"
    }

    private var changeForm: HTML {
        let summary: HTML = profile.email == nil ? "Add an email address" : "Change your email address"
        let failed = failure?.form == .change
        let invalid: HTML = failed ? " aria-describedby=\"email-error\" aria-invalid=\"true\"" : .empty
        return """
            <details class="alternative"\(failed ? " open" : "")>
            <summary>\(summary)</summary>
            \(alert(for: .change))<form method="post" action="/account/email">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="email-new">New email address</label>
            <input type="email" id="email-new" name="email" autocomplete="email" maxlength="\(EmailRules.maxBytes)" required\(invalid)>
            <label for="email-password">Current password</label>
            <input type="password" id="email-password" name="current_password" autocomplete="current-password" required\(invalid)>
            <button type="submit">Send a confirmation link</button>
            </form>
            <p class="hint">The new address takes effect once you follow the link we send to it.</p>
            </details>
            """
    }

    /// The refusal of `form`, if it was the one refused.
    private func alert(for form: Form) -> HTML {
        guard let failure, failure.form == form else { return .empty }
        return "<p class=\"error\" role=\"alert\" id=\"email-error\">\(failure.message)</p>\n"
    }
}
