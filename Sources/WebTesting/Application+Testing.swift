public import Web

extension Application {
    /// Starts the app on a free loopback port for a test.
    public func startForTesting() throws {
        http.host = "127.0.0.1"
        http.port = 0
        try start()
    }

    /// A client for the running app.
    public var client: TestClient { TestClient(port: boundPort) }
}
