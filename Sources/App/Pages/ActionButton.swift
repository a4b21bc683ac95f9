import Web

/// One action on a page as a button of its own little form: a POST (never a link: a GET must
/// not change anything, since a link or an image elsewhere could follow it), with the CSRF
/// token bound to the session. `describedBy` names the element that says what the button acts
/// on, so a screen reader announces "End, Firefox on Linux" rather than a row of bare "End"s.
struct ActionButton: Sendable {
    var action: String
    var label: String
    var csrfToken: String
    var describedBy: String?
    var style: Style = .secondary

    enum Style: String, Sendable { case primary, secondary, danger }

    var html: HTML {
        let described: HTML = describedBy.map { " aria-describedby=\"\($0)\"" } ?? .empty
        let buttonClass: HTML = style == .primary ? .empty : " class=\"\(style.rawValue)\""
        return """
            <form method="post" action="\(action)" class="inline">\
            <input type="hidden" name="csrf_token" value="\(csrfToken)">\
            <button type="submit"\(buttonClass)\(described)>\(label)</button></form>
            """
    }
}
