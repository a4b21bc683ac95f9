import Web

/// The one layout of TIL's pages: TIL's name, the page's heading, the client that asked (on
/// OAuth pages), the content. No inline script, and no style but the stylesheet's; `head`
/// adds elements of the page's own (the passkeys script's CSRF meta and `<script src>`).
enum PageLayout {
    /// How wide `<main>` is: a form's column, or the account page's lists.
    enum Width: String, Sendable { case narrow, wide }

    static func render(title: String, client: String? = nil, head: HTML = .empty, width: Width = .narrow, _ content: HTML) -> HTML {
        let clientLine: HTML = client.map { "<p class=\"client\">for <strong>\($0)</strong></p>" } ?? .empty
        let mainTag: HTML = width == .wide ? "<main class=\"wide\">" : "<main>"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title) · TIL</title>
            <link rel="stylesheet" href="\(Stylesheet.path)">
            \(head)</head>
            <body>
            \(mainTag)
            <p class="brand">TIL <span>Today I Learned</span></p>
            <h1>\(title)</h1>
            \(clientLine)
            \(content)
            </main>
            </body>
            </html>

            """
    }
}
