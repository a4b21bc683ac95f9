import Foundation
import Web
import WebTesting
import XCTest

extension ServerProcess {
    /// `count` `til-server` processes over the test database with `settings` (cheap bcrypt,
    /// warnings only, unless `settings` say otherwise), each answering `/health`. If one fails
    /// to start, every one is stopped and the error names its output.
    static func healthy(_ count: Int, settings: [String: String]) async throws -> [ServerProcess] {
        let environment = try testEnvironment(["BCRYPT_COST": "4", "LOG_LEVEL": "warning"].merging(settings) { $1 })
        var servers: [ServerProcess] = []
        do {
            for _ in 0..<count { servers.append(try ServerProcess(environment: environment)) }
            for server in servers { try await server.waitUntilHealthy() }
            return servers
        } catch {
            await servers.stopAll(showingOutputIf: false)
            throw error
        }
    }
}

/// The answers' status codes, each once per request, in no particular order.
func statusCodes(of requests: [@Sendable () async throws -> TestResponse]) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for request in requests { group.addTask { try await request().status.code } }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
}

/// A test case that starts `til-server` child processes into `servers`: after each test they
/// are stopped, and their output is printed first when the test failed.
class ServerProcessTestCase: XCTestCase {
    var servers: [ServerProcess] = []

    override func tearDown() async throws {
        await servers.stopAll(showingOutputIf: hasFailed)
        servers = []
        try await super.tearDown()
    }
}
