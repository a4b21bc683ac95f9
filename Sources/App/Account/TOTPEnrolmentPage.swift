import Web

/// The page of a pending TOTP enrolment (`POST /account/totp`): the QR code to scan, inline
/// SVG drawn by TIL (no image request, nothing for the CSP to allow), the secret in groups
/// of four for typing by hand, and the form that confirms it with the app's first code.
struct TOTPEnrolmentPage: Sendable {
    var qrCodeSVG: HTML
    /// The secret in base32.
    var secret: String
    var csrfToken: String
    var error: String?

    var html: HTML {
        let describedBy: HTML = error == nil ? " aria-describedby=\"confirm-hint\"" : " aria-describedby=\"confirm-error confirm-hint\" aria-invalid=\"true\""
        let alert: HTML = error.map { "<p class=\"error\" role=\"alert\" id=\"confirm-error\">\($0)</p>\n" } ?? .empty
        return PageLayout.render(title: "Set up two-step sign-in", """
            \(alert)<ol class="steps">
            <li>Scan this QR code with your authenticator app.
            <figure class="qr">\(qrCodeSVG)</figure></li>
            <li>Or enter this key by hand (time-based, 6 digits):
            <p class="secret"><code id="totp-secret">\(Self.grouped(secret))</code></p></li>
            <li>Enter the code the app now shows for TIL.</li>
            </ol>
            <form method="post" action="/account/totp/confirm">
            <input type="hidden" name="csrf_token" value="\(csrfToken)">
            <label for="code">Code</label>
            <input type="text" id="code" name="code" class="otp" autocomplete="one-time-code" inputmode="numeric" autocapitalize="none" spellcheck="false" maxlength="\(SecondFactorInput.maxBytes)" required\(describedBy)>
            <p class="hint" id="confirm-hint">Two-step sign-in turns on once the code checks out.</p>
            <button type="submit">Turn on</button>
            <a class="button secondary" href="\(AccountPageController.path)">Cancel</a>
            </form>
            """)
    }

    /// The QR renderer's SVG, kept as markup: it is TIL's own drawing (a rectangle and one path
    /// of numbers, no text of anyone's), so nothing in it needs escaping.
    static func svg(_ markup: String) -> HTML {
        HTML(stringLiteral: markup)
    }

    /// `ABCDEFGH…` as `ABCD EFGH …`: easier to read aloud and to type.
    static func grouped(_ secret: String) -> String {
        stride(from: 0, to: secret.count, by: 4).map { String(secret.dropFirst($0).prefix(4)) }.joined(separator: " ")
    }
}
