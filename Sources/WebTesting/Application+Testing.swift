public import Web

/// How `Application.test` reaches the app.
public enum TestingMode: Sendable {
    /// The app's responder called directly, no sockets: the same global middleware, router,
    /// error handling and response headers as `live`; `remoteAddress` is nil. The default:
    /// no connect, no thread and no parser per request.
    case inProcess
    /// The real server on 127.0.0.1 (a free port) over TCP: parser, connection and socket
    /// included; handlers see `remoteAddress == "127.0.0.1"`. For what only a socket shows:
    /// the client address, keep-alive, TLS, ports, timeouts, connection limits.
    case live
}

extension Application {
    /// Starts the app (live) or builds its responder (inProcess), runs `body`, then shuts the
    /// app down (running its onShutdown hooks) — also when body throws.
    ///
    /// ```swift
    /// let app = Application(environment: .testing)
    /// app.get("hello") { _ in "world" }
    /// try await app.test(.inProcess) { client in
    ///     let response = try await client.send(.get, "/hello", auth: .bearer(token))
    ///     XCTAssertEqual(response.bodyString, "world")
    /// }
    /// ```
    public func test<R>(_ mode: TestingMode = .inProcess, _ body: (TestClient) async throws -> R) async throws -> R {
        do {
            let client: TestClient
            switch mode {
            case .live:
                try startForTesting()
                client = self.client
            case .inProcess:
                client = TestClient(inProcess: InProcessTransport(responder: makeResponder(), serverName: http.serverName))
            }
            let result = try await body(client)
            await shutdown()
            return result
        } catch {
            await shutdown()
            throw error
        }
    }

    /// Starts the app on a free loopback port for a test (`test(.live)` does this for you).
    public func startForTesting() throws {
        http.host = "127.0.0.1"
        http.port = 0
        try start()
    }

    /// A client for the running app.
    public var client: TestClient { TestClient(port: boundPort) }
}
