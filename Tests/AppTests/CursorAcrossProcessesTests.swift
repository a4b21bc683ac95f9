import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A cursor is the list's position, nothing of the process that wrote it: behind a balancer
/// the next page may come from another `til-server`. Pages walked alternately through this
/// process's app and a child process over the same database give back the whole list, once
/// each and in order — for a public list and for the caller's own sessions.
final class CursorAcrossProcessesTests: ServerProcessTestCase {
    private struct Identified: Decodable { var id: UUID }

    func testPagesContinueOnTheOtherProcess() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for short in ["b", "a", "c", "a", "d", "B", "e"] { _ = try await Acronym.create(short: short, user: user, on: app) }
            let session = try await app.client.session("admin")
            for _ in 0..<4 { _ = try await app.client.session("admin") }
            servers = try await ServerProcess.healthy(1, settings: [:])
            let clients = [app.client, servers[0].client]

            let lists: [(String, TestAuth?)] = [
                ("/api/acronyms/sorted", nil), ("/api/acronyms", nil), ("/api/users/me/sessions", .bearer(session.value)),
            ]
            for (path, auth) in lists {
                let whole = try Self.ids(of: try await app.client.send(.get, path, auth: auth))
                var walked: [UUID] = [], next: String? = "\(path)?limit=2", page = 0
                while let target = next, page < 20 {
                    let response = try await clients[page % 2].send(.get, target, auth: auth)
                    XCTAssertEqual(response.status.code, 200, "page \(page) of \(path) on process \(page % 2): \(response.bodyString)")
                    walked += try Self.ids(of: response)
                    next = nextTarget(response)
                    page += 1
                }
                XCTAssertEqual(walked, whole, path)
                XCTAssertGreaterThanOrEqual(page, 3, "\(path): several pages, on both processes")
            }
        }
    }

    private static func ids(of response: TestResponse) throws -> [UUID] {
        try response.decode([Identified].self).map(\.id)
    }
}
