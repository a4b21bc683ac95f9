import Foundation
import Glibc
import Web
import WebTesting
import XCTest

/// A real `til-server serve` child process on a free loopback port, for tests that need two
/// servers over one database. Its output goes to a temporary file, shown when a test fails.
final class ServerProcess {
    let port: Int
    let process = Process()
    let logURL: URL
    /// A client of this server (its keep-alive connections are shared by every use).
    let client: TestClient

    /// Starts the binary built next to the test bundle (`swift build --build-tests` builds it),
    /// on `hostname` and `port` (default: a free one), with `arguments` added to `serve`'s.
    convenience init(environment: [String: String], hostname: String = "127.0.0.1", port: Int? = nil, arguments: [String] = []) throws {
        let port = try port ?? Self.freePort()
        try self.init(
            executable: "til-server", environment: environment, hostname: hostname, port: port,
            arguments: ["serve", "--hostname", hostname, "--port", String(port), "--no-auto-migrate"] + arguments)
    }

    /// Another server binary of the package (`notes-api`), told where to listen by `arguments`
    /// or `environment`, which must say `hostname` and `port`.
    init(executable: String, environment: [String: String], hostname: String = "127.0.0.1", port: Int, arguments: [String] = []) throws {
        let binary = try Self.binaryURL(named: executable)
        self.port = port
        client = TestClient(host: hostname, port: port)
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(executable)-\(port)-\(UUID()).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else { throw ServerProcessError.noLog(logURL.path) }
        let log = try FileHandle(forWritingTo: logURL)
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The environment of a child server on the test database (`make test` sets
    /// `DATABASE_URL`), with `settings` added; skips the test when there is no database.
    static func testEnvironment(_ settings: [String: String] = [:]) throws -> [String: String] {
        let base = [
            "DATABASE_URL": try testDatabaseURL(), "ENVIRONMENT": "testing", "LOG_LEVEL": "notice",
            // Testing's fixed SECRET_KEY, given explicitly so a child in production opens the signing keys too.
            "SECRET_KEY": testingSecretKey,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        return base.merging(settings) { $1 }
    }

    /// `AppConfiguration.testingSecretKey`, as `SECRET_KEY` spells it.
    static let testingSecretKey = "746573742d6f6e6c792073656372657420d09fd09e20546f646179204c6561726e"

    /// Waits (at most `timeout`) until `path` (`/health`) answers 200. Each probe closes its connection,
    /// as an orchestrator's does, so none stays open to count against a connection limit.
    func waitUntilHealthy(path: String = "/health", timeout: Duration = .seconds(15)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw ServerProcessError.exited(output) }
            if let response = try? await client.send(.get, path, headers: ["Connection": "close"]), response.status.code == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerProcessError.notHealthy(output)
    }

    /// Waits (at most `timeout`) for the process to exit by itself; its exit status, or nil
    /// while it still runs.
    func waitForExit(timeout: Duration = .seconds(15)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL if it has not exited within `timeout`.
    func stop(timeout: Duration = .seconds(5)) async {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var output: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: logURL)
    }

    /// `til-server` in the build folder: beside the test bundle, else `<package>/.build/debug`.
    static func binaryURL(named name: String = "til-server", file: String = #filePath) throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        let packageRoot = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/" + name))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw ServerProcessError.noBinary(candidates.map(\.path))
    }

    /// A port the kernel just handed out on 127.0.0.1 (released at once for the child to bind).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerProcessError.noPort }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerProcessError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension [ServerProcess] {
    /// Stops every server, first printing each one's output when `failed` (a test's `hasFailed`).
    func stopAll(showingOutputIf failed: Bool) async {
        for server in self {
            if failed { print("til-server :\(server.port) output:\n\(server.output)") }
            await server.stop()
        }
    }
}

enum ServerProcessError: Error, CustomStringConvertible {
    case noBinary([String])
    case noPort
    case noLog(String)
    case exited(String)
    case notHealthy(String)

    var description: String {
        switch self {
        case .noBinary(let paths): "til-server not found (run `swift build --build-tests`); looked at \(paths)"
        case .noPort: "no free port on 127.0.0.1"
        case .noLog(let path): "cannot create \(path)"
        case .exited(let output): "til-server exited early:\n\(output)"
        case .notHealthy(let output): "til-server not healthy in time:\n\(output)"
        }
    }
}

extension XCTestCase {
    /// True once this test recorded a failure. (`testRun.hasSucceeded` is false until the run
    /// stops, so in `tearDown` it would call every test failed.)
    var hasFailed: Bool { (testRun?.totalFailureCount ?? 0) > 0 }
}
