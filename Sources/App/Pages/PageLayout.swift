import Web

/// The one layout of TIL's pages: TIL's name, the page's heading, the client that asked (on
/// OAuth pages), the content. No script, and no style but the stylesheet's.
enum PageLayout {
    static func render(title: String, client: String? = nil, _ content: HTML) -> HTML {
        let clientLine: HTML = client.map { "<p class=\"client\">for <strong>\($0)</strong></p>" } ?? .empty
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title) · TIL</title>
            <link rel="stylesheet" href="\(Stylesheet.path)">
            </head>
            <body>
            <main>
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
