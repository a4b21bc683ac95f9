import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// `PUT /api/users/me/password` under concurrency: its check of the current password is a
/// login attempt like any other, admitted in PostgreSQL before bcrypt runs, so wrong changes
/// and wrong logins sent together are checked at most the limit times between them; and two
/// changes at once leave one of the two new passwords, never both, never the old.
final class PasswordChangeRaceTests: XCTestCase {
    func testWrongChangesAndWrongLoginsAtOnceAreCheckedAtMostTheLimitBetweenThem() async throws {
        try await withTestApp(settings: ["LOGIN_MAX_FAILURES": "3", "LOGIN_WINDOW": "60"]) { app in
            // Cost 10: each check is slow enough for all twenty attempts to be in flight together.
            let user = try await UserRepository(db: app.til.db).create(
                name: "Racer", username: "racer", passwordHash: try Bcrypt.hash("password", cost: 10))
            let session = try await app.client.session("racer")
            let client = app.client, token = session.value
            let changes: [@Sendable () async throws -> TestResponse] = (0..<10).map { attempt in
                {
                    try await client.send(
                        .put, "/api/users/me/password", json: ["currentPassword": "wrong-\(attempt)", "newPassword": "brand-new-pw"],
                        auth: .bearer(token))
                }
            }
            let logins: [@Sendable () async throws -> TestResponse] = (0..<10).map { _ in { try await client.login("racer", "wrong") } }
            let codes = try await statusCodes(of: zip(changes, logins).flatMap { [$0, $1] })
            let checked = codes.filter { $0 == 401 || $0 == 403 }
            XCTAssertEqual(checked.count, 3, "password checks: \(codes.sorted())")
            XCTAssertEqual(codes.filter { $0 == 429 }.count, 17, "\(codes.sorted())")
            let hash = try await app.storedPasswordHash(of: user.id)
            XCTAssertTrue(try Bcrypt.verify("password", created: hash), "no wrong change went through")
        }
    }

    func testTwoChangesAtOnceLeaveOneNewPasswordAndKeepTheCaller() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let caller = try await app.client.session(user.username)
            let other = try await app.client.session(user.username)
            let client = app.client, token = caller.value
            let codes = try await statusCodes(of: ["first-new-pass", "second-new-pass"].map { newPassword in
                {
                    try await client.send(
                        .put, "/api/users/me/password", json: ["currentPassword": "password", "newPassword": newPassword],
                        auth: .bearer(token))
                }
            })
            // Each checks "password" against the hash it reads: a change that starts after the
            // other has finished finds the password already changed (403). Either way, one wins.
            XCTAssertTrue([[204, 204], [204, 403]].contains(codes.sorted()), "\(codes)")
            var working: [String] = []
            for password in ["first-new-pass", "second-new-pass", "password"] {
                if try await app.client.login(user.username, password).status.code == 200 { working.append(password) }
            }
            XCTAssertEqual(working.count, 1, "passwords that work: \(working)")
            XCTAssertNotEqual(working, ["password"])
            let callerStatus = try await app.client.meStatus(caller.value)
            XCTAssertEqual(callerStatus, 200, "both changes kept the calling session")
            let otherStatus = try await app.client.meStatus(other.value)
            XCTAssertEqual(otherStatus, 401, "another session of the user ended")
        }
    }
}
