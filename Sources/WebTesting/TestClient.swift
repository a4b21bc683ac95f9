import Foundation
import Threads
public import Web

/// Sends requests to an app under test: in process straight into its responder, or over
/// loopback TCP to a running server on keep-alive connections (`LiveTransport`). Copies of a
/// client share its connections.
public struct TestClient: Sendable {
    private enum Transport: Sendable {
        case live(LiveTransport)
        case inProcess(InProcessTransport)
    }

    private let transport: Transport

    /// A client for a server already listening on `host:port`.
    public init(host: String = "127.0.0.1", port: Int) {
        transport = .live(LiveTransport(host: host, port: port))
    }

    init(inProcess transport: InProcessTransport) {
        self.transport = .inProcess(transport)
    }

    /// Sends one request; `auth` sets the `Authorization` header (replacing one in `headers`).
    public func send(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: [UInt8] = [], auth: TestAuth? = nil
    ) async throws -> TestResponse {
        switch transport {
        case .live(let server):
            let host = "\(server.host):\(server.port)"
            return try await server.send(TestRequest(method, path, headers: headers, body: body, auth: auth, host: host))
        case .inProcess(let server):
            return try await server.send(TestRequest(method, path, headers: headers, body: body, auth: auth, host: "localhost"))
        }
    }

    /// Sends `json` as a JSON body.
    public func send(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], json: some Encodable, auth: TestAuth? = nil
    ) async throws -> TestResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return try await send(method, path, headers: headers, body: Array(try JSONEncoder().encode(json)), auth: auth)
    }
}

/// Runs blocking `work` on a new thread and awaits its result.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        do {
            try OSThread.detach(name: "til-test-io") { continuation.resume(with: Result { try work() }) }
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
