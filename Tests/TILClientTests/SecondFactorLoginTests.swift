import Foundation
import OneTimePasswords
import TILClient
import XCTest

/// A password login for an account with TOTP on, as TILClient does it: the typed challenge,
/// then the second step with a code or a recovery code, the pair kept as any login's.
final class SecondFactorLoginTests: XCTestCase {
    func testTheLoginThrowsAChallengeAndTheAppsCodeCompletesIt() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let store = MemoryCredentialStore()
            let til = server.client(store: store)

            let challenge = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            XCTAssertEqual(challenge.methods, ["totp", "recovery_code"])
            XCTAssertEqual(challenge.username, holder.user.username)
            XCTAssertEqual(challenge.origin, Origin(server.url))
            XCTAssertFalse("\(TILError.secondFactorRequired(challenge))".contains(challenge.mfaToken), "a description never shows the token")
            let before = await store.load()
            XCTAssertTrue(before.isEmpty, "no token before the second step")

            let token = try await til.completeSecondFactor(challenge, code: holder.nextCode())
            XCTAssertNil(token.recoveryCodesRemaining)
            let me = try await til.me()
            XCTAssertEqual(me, holder.user.asPublic)
            let stored = await store.load()
            XCTAssertEqual(stored.username, holder.user.username)
            XCTAssertEqual(stored.credentials.map(\.sessionID), [token.id], "kept as a password login keeps its pair")
            XCTAssertEqual(stored.credentials.first?.signIn, .password)
            let amr = try await server.amr(ofSession: token.id)
            XCTAssertEqual(amr, ["pwd", "otp", "mfa"])
            try await til.logout()
            let live = try await server.liveSessions(of: holder.user)
            XCTAssertEqual(live, 0, "logout ends the session the second step started")
        }
    }

    func testARecoveryCodeCompletesTheLoginOnceAndSaysHowManyAreLeft() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = server.client()
            let spelled = holder.recoveryCodes[0].lowercased().replacingOccurrences(of: "-", with: " ")

            let first = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            let token = try await til.completeSecondFactor(first, recoveryCode: spelled)
            XCTAssertEqual(token.recoveryCodesRemaining, 9)
            let amr = try await server.amr(ofSession: token.id)
            XCTAssertEqual(amr, ["pwd", "mfa"])

            let second = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            await assertServerError(401, "The code is wrong or was already used.") {
                try await til.completeSecondFactor(second, recoveryCode: holder.recoveryCodes[0])
            }
            let status = try await til.mfa.status()
            XCTAssertEqual(status, MFAStatus(totp: true, recoveryCodesRemaining: 9, passkeys: 0))
        }
    }

    func testAWrongCodeIsAClearRefusalAndTheChallengeStillTakesTheRightOne() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = server.client()
            let challenge = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            await assertServerError(401, "The code is wrong or was already used.") {
                try await til.completeSecondFactor(challenge, code: holder.wrongCode())
            }
            await assertServerError(400, "'code' must be the 6 digits the authenticator app shows.") {
                try await til.completeSecondFactor(challenge, code: "12345")
            }
            let stored = try await til.credentials()
            XCTAssertTrue(stored.isEmpty)
            try await til.completeSecondFactor(challenge, code: holder.code())
            await assertServerError(401, "The mfaToken is no longer valid.") {
                try await til.completeSecondFactor(challenge, code: holder.nextCode())
            }
        }
    }

    func testCodesAsPhonesTypeThemAreTakenAsTheyAre() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = server.client()
            let fullWidth = String(String.UnicodeScalarView(holder.nextCode().unicodeScalars.map { Unicode.Scalar($0.value - 0x30 + 0xFF10)! }))
            let spaced = fullWidth.prefix(3) + "\u{3000}" + fullWidth.dropFirst(3)

            let challenge = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            let token = try await til.completeSecondFactor(challenge, code: String(spaced))
            XCTAssertEqual(token.user.id, holder.user.id, "full-width digits with an ideographic space: the app's code all the same")
        }
    }

    func testOneChallengeRacedTwiceLogsInOnce() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = server.client()
            let challenge = try await secondFactorChallenge { try await til.login(username: holder.user.username, password: holder.password) }
            let (first, second) = (holder.nextCode(), holder.nextCode())
            async let a = Self.outcome { try await til.completeSecondFactor(challenge, code: first) }
            async let b = Self.outcome { try await til.completeSecondFactor(challenge, code: second) }
            let outcomes = await [a, b]
            XCTAssertEqual(outcomes.filter { $0 == 200 }.count, 1, "\(outcomes)")
            XCTAssertEqual(outcomes.filter { $0 == 401 }.count, 1, "\(outcomes)")
            let live = try await server.liveSessions(of: holder.user)
            XCTAssertEqual(live, 1)
        }
    }

    func testTheTokenOfAChallengeGoesToNoOtherServer() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let challenge = try await secondFactorChallenge {
                try await server.client().login(username: holder.user.username, password: holder.password)
            }
            // The same server under another name is another origin: the token is not sent there.
            var components = try XCTUnwrap(URLComponents(url: server.url, resolvingAgainstBaseURL: false))
            components.host = "localhost"
            let elsewhere = APIClient(server: try XCTUnwrap(components.url))
            let code = holder.nextCode()
            await assertNotAuthenticated { try await elsewhere.completeSecondFactor(challenge, code: code) }
            let token = try await server.client().completeSecondFactor(challenge, code: code)
            XCTAssertEqual(token.user.id, holder.user.id, "neither the token nor the code was spent elsewhere")
        }
    }

    func testAnAccountWithoutTOTPLogsInInOneStep() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let token = try await server.client().login(username: user.username, password: password)
            let amr = try await server.amr(ofSession: token.id)
            XCTAssertEqual(amr, ["pwd"])
            await assertServerError(401, "Invalid username or password.") {
                try await server.client().login(username: user.username, password: "wrong")
            }
        }
    }

    /// 200 when `work` succeeds, else the status of the `TILError` it throws.
    private static func outcome(_ work: () async throws -> some Any) async -> Int? {
        do {
            _ = try await work()
            return 200
        } catch let error as TILError {
            return error.status
        } catch {
            return nil
        }
    }
}
