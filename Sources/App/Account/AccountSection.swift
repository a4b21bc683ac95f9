import Web

/// One section of the account page: a landmark named by its `<h2>`, an optional lead, then
/// its rows as a list (or a sentence saying there are none), then what follows them (a form).
enum AccountSection {
    static func render(id: String, heading: String, lead: HTML = .empty, items: [HTML], empty: String, after: HTML = .empty) -> HTML {
        let list: HTML = items.isEmpty
            ? "<p>\(empty)</p>"
            : "<ul class=\"items\">\n\(HTML.joined(items, separator: "\n"))\n</ul>"
        return """
            <section aria-labelledby="\(id)-heading">
            <h2 id="\(id)-heading">\(heading)</h2>
            \(lead)\(list)
            \(after)</section>
            """
    }
}
