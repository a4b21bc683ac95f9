import AppTesting
import Foundation
import OneTimePasswords
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// Two `til-server` processes over one database: a TOTP code accepted by one is refused by the
/// other (the last accepted step lives in PostgreSQL), and one code raced to both is accepted
/// once. The servers run on the real clock, so the codes here are the real time's.
final class MFAAcrossProcessesTests: ServerProcessTestCase {
    func testACodeAcceptedByOneProcessIsRefusedByTheOther() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(clock: TestClock(Date()))
            servers = try await ServerProcess.healthy(2, settings: ["LOGIN_MAX_FAILURES": "20"])
            let (a, b) = (servers[0].client, servers[1].client)
            let code = TOTP(secret: enrolled.secret).code(at: Date().addingTimeInterval(30))

            let first = try await Self.mfaToken(enrolled.user.username, on: a)
            let accepted = try await a.send(.post, "/api/users/login/mfa", json: ["mfaToken": first, "code": code])
            XCTAssertEqual(accepted.status.code, 200, accepted.bodyString)

            let second = try await Self.mfaToken(enrolled.user.username, on: b)
            let replay = try await b.send(.post, "/api/users/login/mfa", json: ["mfaToken": second, "code": code])
            XCTAssertEqual(replay.status.code, 401, "replayed on the other process: \(replay.bodyString)")
            XCTAssertEqual(try replay.decode(ErrorBody.self).reason, SecondFactors.wrongCode)
            let spent = try await a.send(.post, "/api/users/login/mfa", json: ["mfaToken": first, "code": code])
            XCTAssertEqual(try spent.decode(ErrorBody.self).reason, "The mfaToken is no longer valid.", "and the token on its own")
        }
    }

    func testOneCodeRacedToBothProcessesIsAcceptedOnce() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(clock: TestClock(Date()))
            servers = try await ServerProcess.healthy(2, settings: ["LOGIN_MAX_FAILURES": "20"])
            let clients = [servers[0].client, servers[1].client]
            var requests: [@Sendable () async throws -> TestResponse] = []
            let code = TOTP(secret: enrolled.secret).code(at: Date().addingTimeInterval(30))
            for index in 0..<6 {
                let client = clients[index % 2]
                let token = try await Self.mfaToken(enrolled.user.username, on: client)
                requests.append { try await client.send(.post, "/api/users/login/mfa", json: ["mfaToken": token, "code": code]) }
            }
            let codes = try await statusCodes(of: requests)
            XCTAssertEqual(codes.filter { $0 == 200 }.count, 1, "\(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 401 }.count, 5, "\(codes.sorted())")
        }
    }

    private static func mfaToken(_ username: String, on client: TestClient) async throws -> String {
        let response = try await client.login(username)
        XCTAssertEqual(response.status.code, 401, response.bodyString)
        return try response.decode(MFARequired.self).mfaToken
    }
}
