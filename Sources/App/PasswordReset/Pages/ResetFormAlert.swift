import Web

/// The error of a reset page's form: announced (`role="alert"`) and tied to the field it
/// concerns, after the field's own hint.
struct ResetFormAlert: Sendable {
    let message: String?

    /// The alert paragraph, or nothing.
    var html: HTML {
        message.map { "<p class=\"error\" role=\"alert\" id=\"reset-error\">\($0)</p>\n" } ?? .empty
    }

    /// The field's `aria-describedby` (the alert, if any, then `hint`), and `aria-invalid` with an error.
    func describing(hint: String) -> HTML {
        message == nil ? " aria-describedby=\"\(hint)\"" : " aria-describedby=\"reset-error \(hint)\" aria-invalid=\"true\""
    }
}
