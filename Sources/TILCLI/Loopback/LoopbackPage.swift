/// The small HTML answers of the loopback listener: never cached, never framed, no script,
/// and no `Referer` (the address held the code).
struct LoopbackPage: Equatable {
    let status: String
    let title: String
    let message: String

    /// The answer to the browser's redirect, whatever it carried: `til` checks it next.
    static let signedIn = LoopbackPage(
        status: "200 OK", title: "til: back in the terminal", message: "til has the answer. You may close this window and return to the terminal.")
    static let badRequest = LoopbackPage(status: "400 Bad Request", title: "Bad request", message: "This is not the sign-in's answer.")
    static let notFound = LoopbackPage(status: "404 Not Found", title: "Not found", message: "til waits at /callback only.")
    static let methodNotAllowed = LoopbackPage(status: "405 Method Not Allowed", title: "Method not allowed", message: "Only GET is taken.")

    var bytes: [UInt8] {
        let body = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head>\
            <body><h1>\(title)</h1><p>\(message)</p></body></html>

            """
        var head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
        if status.hasPrefix("405") { head += "Allow: GET\r\n" }
        head += "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'none'\r\n"
        head += "X-Frame-Options: DENY\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }
}
