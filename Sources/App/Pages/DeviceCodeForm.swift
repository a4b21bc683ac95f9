import Web

/// The device verification page's form (RFC 8628 §3.3): one labelled field, `user_code`, as
/// the device showed it (prefilled from `verification_uri_complete`), the CSRF token bound to
/// the browser session, posting to `/device`. An error is announced and tied to the field.
struct DeviceCodeForm: Sendable {
    var csrfToken: String
    var username: String
    var userCode = ""
    var error: String?

    var html: HTML {
        let describedBy: HTML = error == nil ? " aria-describedby=\"user-code-hint\"" : " aria-describedby=\"user-code-error user-code-hint\" aria-invalid=\"true\""
        let alert: HTML = error.map { "<p class=\"error\" role=\"alert\" id=\"user-code-error\">\($0)</p>\n" } ?? .empty
        return PageLayout.render(title: "Connect a device", """
            \(alert)<p>Signed in as <strong>\(username)</strong>. Enter the code your device shows.</p>
            <form method="post" action="/device">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="user-code">Code</label>
            <input type="text" id="user-code" name="user_code" class="user-code" value="\(userCode)" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="\(UserCode.maxInputBytes)" required\(describedBy)>
            <p class="hint" id="user-code-hint">Eight letters, like BCDF-GHJK. Only enter a code from a device you are setting up yourself.</p>
            <button type="submit">Continue</button>
            </form>
            """)
    }
}
