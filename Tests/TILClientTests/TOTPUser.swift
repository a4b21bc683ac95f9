import AppTesting
import Foundation
import OneTimePasswords
import TILClient
import XCTest

/// A user of a live server who turned TOTP on through TILClient, as a person would: the
/// secret the enrolment call answered, and the codes the test's authenticator computes from
/// it at the server's test clock.
struct TOTPUser {
    let user: TestUser
    let password: String
    let secret: [UInt8]
    /// The set the confirmation answered, once.
    let recoveryCodes: [String]
    let clock: TestClock

    /// The code of the clock's current step.
    func code() -> String {
        TOTP(secret: secret).code(at: clock.now)
    }

    /// Six digits that are no code the server accepts now (none of the steps ±1).
    func wrongCode() -> String {
        let step = TOTP.step(at: clock.now)
        let accepted = Set((step - 1...step + 1).map { TOTP(secret: secret).code(step: $0) })
        return ["000000", "111111", "222222", "333333"].first { !accepted.contains($0) }!
    }

    /// The code of the next step, the clock moved onto it: each accepted step is usable once, so
    /// a test asks for a new one per login.
    func nextCode() -> String {
        clock.advance(steps: 1)
        return code()
    }
}

extension LiveServer {
    /// A new user with TOTP on, enrolled and confirmed through `client.mfa` by a login of its
    /// own (ended afterwards, so the user holds no session); the clock then moves a step on.
    func totpUser() async throws -> TOTPUser {
        let (user, password) = try await makeUser()
        let client = client()
        try await client.login(username: user.username, password: password)
        let secret = try await enrol(with: client)
        let codes = try await client.mfa.confirmTOTP(code: TOTP(secret: secret).code(at: clock.now))
        try await client.logout()
        clock.advance(steps: 1)  // the confirming code is history: `code()` is one never used
        return TOTPUser(user: user, password: password, secret: secret, recoveryCodes: codes, clock: clock)
    }

    /// A client logged in as `holder` through both steps (password, then the next code).
    func client(loggedInAs holder: TOTPUser) async throws -> APIClient {
        let til = client()
        let challenge = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
        try await til.completeSecondFactor(challenge, code: holder.nextCode())
        return til
    }

    /// `til` logged in (`til login --password-stdin`) as a new user of this test alone; the
    /// caller removes its config folder (`removeConfig()`).
    func loggedInCommandLine(file: StaticString = #filePath, line: UInt = #line) async throws -> (til: CommandLine, user: TestUser, password: String) {
        let (user, password) = try await makeUser()
        let til = try CommandLine(server: url)
        let login = try await til.run("login", "--username", user.username, "--password-stdin", stdin: password + "\n")
        XCTAssertEqual(login.status, 0, login.stderr, file: file, line: line)
        return (til, user, password)
    }

    /// Starts an enrolment on `client`'s account; the secret, decoded from the answer's base32.
    func enrol(with client: APIClient) async throws -> [UInt8] {
        let enrolment = try await client.mfa.startTOTP()
        XCTAssertTrue(enrolment.otpauthURI.hasPrefix("otpauth://totp/TIL:"), enrolment.otpauthURI)
        return try XCTUnwrap(Base32.decode(enrolment.secret))
    }
}

/// The challenge `work` throws as `TILError.secondFactorRequired`; fails the test otherwise.
func secondFactorChallenge(
    _ work: () async throws -> some Any, file: StaticString = #filePath, line: UInt = #line
) async throws -> SecondFactorChallenge {
    do {
        _ = try await work()
    } catch TILError.secondFactorRequired(let challenge) {
        return challenge
    }
    XCTFail("expected secondFactorRequired", file: file, line: line)
    throw TILError.invalidResponse("no second-factor challenge")
}
