import AppTesting
import Foundation
import OneTimePasswords
import TILClient
import XCTest
@testable import App

/// TILClient's second step against two `til-server` processes over one database, as behind a
/// balancer: what one process accepted, the other refuses, and one recovery code raced through
/// both logs in once. The servers run on the real clock, so the codes are the real time's.
final class ClientSecondFactorAcrossProcessesTests: ServerProcessTestCase {
    func testACodeSpentThroughOneProcessIsRefusedThroughTheOther() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(clock: TestClock(Date()))
            servers = try await ServerProcess.healthy(2, settings: ["LOGIN_MAX_FAILURES": "20"])
            let (a, b) = (Self.client(of: servers[0]), Self.client(of: servers[1]))
            let code = TOTP(secret: enrolled.secret).code(at: Date().addingTimeInterval(30))

            let first = try await Self.challenge(enrolled.user.username, on: a)
            let token = try await a.completeSecondFactor(first, code: code)
            XCTAssertEqual(token.user.id, enrolled.user.id)
            let second = try await Self.challenge(enrolled.user.username, on: b)
            do {
                try await b.completeSecondFactor(second, code: code)
                XCTFail("the code was replayed through the other process")
            } catch TILError.server(let status, let reason, _) {
                XCTAssertEqual(status, 401)
                XCTAssertEqual(reason, SecondFactors.wrongCode)
            }
            let status = try await a.mfa.status()
            XCTAssertTrue(status.totp, "the first login's pair works")
        }
    }

    func testOneRecoveryCodeRacedThroughBothProcessesLogsInOnce() async throws {
        try await withTestApp { app in
            let enrolled = try await app.enrolledUser(clock: TestClock(Date()))
            servers = try await ServerProcess.healthy(2, settings: ["LOGIN_MAX_FAILURES": "20"])
            let clients = [Self.client(of: servers[0]), Self.client(of: servers[1])]
            let code = enrolled.recoveryCodes[0]
            var challenges: [(APIClient, SecondFactorChallenge)] = []
            for index in 0..<4 {
                let client = clients[index % 2]
                challenges.append((client, try await Self.challenge(enrolled.user.username, on: client)))
            }
            let statuses = await withTaskGroup(of: Int.self) { group in
                for (client, challenge) in challenges {
                    group.addTask {
                        do {
                            return try await client.completeSecondFactor(challenge, recoveryCode: code).recoveryCodesRemaining == 9 ? 200 : 0
                        } catch {
                            return (error as? TILError)?.status ?? -1
                        }
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(statuses.sorted(), [200, 401, 401, 401])
        }
    }

    private static func client(of server: ServerProcess) -> APIClient {
        APIClient(server: URL(string: "http://127.0.0.1:\(server.port)")!)
    }

    /// The challenge a correct password for `username` gets through `client`.
    private static func challenge(_ username: String, on client: APIClient) async throws -> SecondFactorChallenge {
        do {
            try await client.login(username: username, password: "password")
        } catch TILError.secondFactorRequired(let challenge) {
            return challenge
        }
        throw TILError.invalidResponse("\(username) logged in without a second factor")
    }
}
