import Web

/// Serves a test request without sockets: the app's responder is called directly (global
/// middleware, router, error handling, request id — what a live server calls), and its answer
/// is serialised by the server's own `ResponseWriter` and parsed back, so framing headers
/// (`Content-Length`, `Connection`, `Date`, `Server`) and HEAD or 204 bodies match a live
/// response. Requests carry no `remoteAddress`.
struct InProcessTransport: Sendable {
    let responder: any HTTPResponder
    let serverName: String

    func send(_ request: TestRequest) async throws -> TestResponse {
        let head = request.head
        let response = await responder.respond(to: HTTPRequest(head: head, body: request.body))
        var bytes: [UInt8] = []
        ResponseWriter.write(
            response, keepAlive: head.keepAlive, isHeadRequest: head.method == .head, requestVersion: head.version,
            date: HTTPDateCache.now, serverName: serverName, into: &bytes)
        guard let (parsed, _) = TestResponse.parse(bytes[...], isHead: head.method == .head) else {
            throw TestClientError.closed
        }
        return parsed
    }
}
