import Foundation
public import Web

/// Sends requests to a running server over loopback, one connection each.
///
/// The blocking socket work runs on a thread of its own, so tests never block the
/// cooperative pool the server's tasks may need.
public struct TestClient: Sendable {
    public let host: String
    public let port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    public func send(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async throws -> TestResponse {
        var text = "\(method.rawValue) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for field in headers.fields { text += "\(field.name): \(field.value)\r\n" }
        if !body.isEmpty || [.post, .put, .patch].contains(method) { text += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + body
        let host = host, port = port
        return try await onThread {
            let connection = try RawConnection(host: host, port: port)
            try connection.write(bytes)
            return try connection.readResponse(isHead: method == .head)
        }
    }

    /// Sends `value` as a JSON body.
    public func send(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], json value: some Encodable
    ) async throws -> TestResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return try await send(method, path, headers: headers, body: Array(try JSONEncoder().encode(value)))
    }
}

/// Runs blocking `work` on a new thread and awaits its result.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
