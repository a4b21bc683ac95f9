import Foundation
import Synchronization
import Web
import WebTesting

/// A server that is not the TIL server the client logged in to — someone else's, or a proxy that
/// redirects — so a test can see exactly what the client sends it: a real HTTP server (the
/// project's own, on a free loopback port) that records every request, headers and all, and
/// answers whatever the test's `answer` says.
struct FakeServer: Sendable {
    /// One request as it arrived.
    struct Received: Sendable {
        var method: String
        var path: String
        /// Names lowercased; repeated fields joined with ", ".
        var headers: [String: String]
        var body: String
    }

    let url: URL
    private let recorder: Recorder

    /// Runs `body` with a fake server listening; it answers each request with `answer`.
    static func run<R>(
        answer: @escaping @Sendable (Request) -> Response = { _ in Response(status: .notFound, text: "nothing here") },
        _ body: (FakeServer) async throws -> R
    ) async throws -> R {
        let recorder = Recorder()
        let app = Application(environment: .testing, logger: .quiet("fake-server"))
        for method in [HTTPMethod.get, .head, .post, .put, .patch, .delete, .options] {
            app.on(method, ["**"]) { request -> Response in
                recorder.record(request)
                return answer(request)
            }
        }
        return try await app.test(.live) { _ in
            try await body(FakeServer(url: URL(string: "http://127.0.0.1:\(app.boundPort)")!, recorder: recorder))
        }
    }

    /// Every request it got, in order.
    var received: [Received] { recorder.all }

    /// Whether `secret` appeared anywhere in any request it got: a header, the path, the body.
    func saw(_ secret: String) -> Bool {
        received.contains { $0.path.contains(secret) || $0.body.contains(secret) || $0.headers.values.contains { $0.contains(secret) } }
    }

    /// A JSON answer.
    static func json(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        let body = (try? JSONEncoder().encode(value)) ?? Data()
        return Response(status: status, headers: ["Content-Type": "application/json"], body: Array(body))
    }

    /// A redirect to `location`.
    static func redirect(_ status: Int, to location: URL) -> Response {
        Response(status: HTTPStatus(code: status), headers: ["Location": location.absoluteString])
    }

    private final class Recorder: Sendable {
        private let requests = Mutex<[Received]>([])

        func record(_ request: Request) {
            let headers = Dictionary(request.headers.fields.map { ($0.name.lowercased(), $0.value) }) { first, second in "\(first), \(second)" }
            requests.withLock { $0.append(Received(
                method: request.method.rawValue, path: request.path, headers: headers, body: String(decoding: request.body, as: UTF8.self))) }
        }

        var all: [Received] { requests.withLock { $0 } }
    }
}
