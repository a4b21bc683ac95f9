import Web

/// A link a message carries: shown as a button in the HTML part and as the bare URL in the
/// text part (some readers show only one), with how long it works.
struct MailLink: Sendable, Equatable {
    let url: String
    /// The button's words: "Verify your email address".
    let label: String
    /// "24 hours", "30 minutes"; nil for a link that does not expire.
    let lifetime: String?
}

/// The one look of every message TIL sends, so feature code writes only its subject and a few
/// sentences. Both parts say the same thing; the HTML part is plain, with inline styles (mail
/// readers ignore style sheets) and everything escaped.
enum MailLayout {
    static func compose(kind: MailKind, to recipient: String, subject: String, paragraphs: [String], link: MailLink? = nil) -> OutgoingMail {
        OutgoingMail(
            kind: kind, recipient: recipient, subject: subject,
            text: text(paragraphs: paragraphs, link: link), html: html(subject: subject, paragraphs: paragraphs, link: link))
    }

    static let signature = "— TIL"
    static let unrequestedNote = "If you did not ask for this, you can ignore this message."

    private static func lifetimeSentence(_ link: MailLink) -> String? {
        link.lifetime.map { "The link works for \($0), once." }
    }

    private static func text(paragraphs: [String], link: MailLink?) -> String {
        var blocks = paragraphs
        if let link {
            blocks.append("\(link.label):\n\(link.url)")
            if let sentence = lifetimeSentence(link) { blocks.append(sentence) }
        }
        blocks.append(signature)
        return blocks.joined(separator: "\n\n") + "\n"
    }

    private static func html(subject: String, paragraphs: [String], link: MailLink?) -> String {
        var body = paragraphs.map { "<p>\(HTML.escape($0))</p>" }
        if let link {
            let url = HTML.escape(link.url)
            body.append("""
                <p><a href="\(url)" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;\
                text-decoration:none;border-radius:6px">\(HTML.escape(link.label))</a></p>
                <p style="font-size:13px;color:#555555">\(url)</p>
                """)
            if let sentence = lifetimeSentence(link) { body.append("<p>\(HTML.escape(sentence))</p>") }
        }
        body.append("<p>\(HTML.escape(signature))</p>")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(subject))</title></head>
            <body style="font-family:sans-serif;font-size:15px;line-height:1.5;color:#111111;max-width:560px">
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }
}
