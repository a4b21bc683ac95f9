import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// One username, asked for at once in several spellings the rules call the same name (case,
/// Unicode normal form, PostgreSQL's folding of `İ`): exactly one account is made, in process
/// and across two processes, because the unique index on `lower(username)` over the NFC form
/// decides, not a check made before the insert.
final class UsernameRaceTests: ServerProcessTestCase {
    private struct NewUser: Encodable { var name = "N", username: String, password = "password" }

    private static let spellings = [
        "Renée-divinity", "Rene\u{301}e-divinity", "RENÉE-DIVINITY", "renée-dİvİnİty", "RENE\u{301}E-DİVİNİTY", "rEnÉe-DiViNiTy",
    ]

    func testConcurrentCreationsInSeveralSpellingsMakeOneAccount() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            let token = try await app.client.session("admin").value
            let client = app.client
            let codes = try await statusCodes(of: (Self.spellings + Self.spellings).map { username in
                { try await client.send(.post, "/api/users", json: NewUser(username: username), auth: .bearer(token)) }
            })
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 409 }.count, 11, "\(codes.sorted())")
            let accounts = try await app.number("SELECT count(*) AS n FROM users WHERE username <> 'admin'")
            XCTAssertEqual(accounts, 1)
        }
    }

    func testCreationsSplitAcrossTwoProcessesMakeOneAccount() async throws {
        try await withTestApp(settings: ["COMMON_PASSWORD_CHECK": "off"]) { app in
            servers = try await ServerProcess.healthy(1, settings: ["COMMON_PASSWORD_CHECK": "off"])
            let (local, remote) = (app.client, servers[0].client)
            let (localToken, remoteToken) = (try await local.session("admin").value, try await remote.session("admin").value)
            let codes = try await statusCodes(of: (Self.spellings + Self.spellings).enumerated().map { index, username in
                let (client, token) = index.isMultiple(of: 2) ? (local, localToken) : (remote, remoteToken)
                return { try await client.send(.post, "/api/users", json: NewUser(username: username), auth: .bearer(token)) }
            })
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 409 }.count, 11, "\(codes.sorted())")
            let accounts = try await app.number("SELECT count(*) AS n FROM users WHERE username <> 'admin'")
            XCTAssertEqual(accounts, 1)
        }
    }
}
