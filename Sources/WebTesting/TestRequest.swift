import Web

/// One request as a test client sends it: the same head and body whether it goes over a
/// socket (serialised) or straight into the responder. HTTP/1.1 and keep-alive, as a real
/// client sends it; a test that wants the connection closed sends `Connection: close` itself.
struct TestRequest {
    var head: HTTPRequestHead
    var body: [UInt8]

    /// `auth`, when given, replaces any `Authorization` in `headers`.
    init(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: [UInt8], auth: TestAuth?, host: String) {
        var all: HTTPHeaders = ["Host": host]
        for field in headers { all.add(name: field.name, value: field.value) }
        if let auth { all.replaceOrAdd(name: "Authorization", value: auth.headerValue) }
        if !body.isEmpty || [.post, .put, .patch].contains(method) { all.add(name: "Content-Length", value: "\(body.count)") }
        head = HTTPRequestHead(method: method, target: path, version: .http1_1, headers: all)
        self.body = body
    }

    /// The request as HTTP/1.1 bytes.
    var bytes: [UInt8] {
        var text = "\(head.method.rawValue) \(head.target) HTTP/1.1\r\n"
        for field in head.headers { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8) + body
    }
}
