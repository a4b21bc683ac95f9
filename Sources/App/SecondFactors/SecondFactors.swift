import Crypt
import Foundation
import OneTimePasswords
import Postgres
import Web

/// The second factors of an account (issue 20): whether a password login needs one, the
/// mfaToken of a login waiting for it, and the check of a TOTP code or a recovery code.
///
/// Every check is admitted by the login throttle first (`LoginThrottle.begin`, keyed by the
/// account's username and the client address, the very counters failed passwords use), so
/// wrong codes answer 429 with `Retry-After` past the limit in every process; a code that
/// proves right leaves no failure behind. A right password forgives its pair's failures, so
/// wrong codes are also counted under a key of the account's own (`failureKey`), which no
/// password forgives: knowing the password does not buy unlimited guesses at the code. A TOTP code is accepted once: the step it belongs
/// to is recorded by one conditional `UPDATE`, and a recovery code is spent by one `DELETE`.
struct SecondFactors: Sendable {
    let db: PostgresClient
    let totp: TOTPCredentialRepository
    let recoveryCodes: RecoveryCodeRepository
    let challenges: MFAChallengeRepository
    let throttle: LoginThrottle
    /// Wrong codes per account (`failureKey`) and per address, as `LOGIN_*` configure logins.
    let failures: FailureThrottle
    let users: UserRepository
    let audit: AuditLog
    let clock: SecondFactorClock
    /// Passkeys as a second factor; nil where the app has none (commands).
    var passkeys: PasskeyAuthentication?

    init(db: PostgresClient, secretKey: SecretKey?, throttle: LoginThrottle, audit: AuditLog, clock: SecondFactorClock) {
        self.db = db
        totp = TOTPCredentialRepository(db: db, secretKey: secretKey)
        recoveryCodes = RecoveryCodeRepository(db: db)
        challenges = MFAChallengeRepository(db: db, clock: clock)
        self.throttle = throttle
        failures = FailureThrottle(db: db, maxFailures: throttle.maxFailures, window: throttle.window)
        users = UserRepository(db: db)
        self.audit = audit
        self.clock = clock
    }

    static let tokenGone = SecondStepRefusal.tokenGone
    static let wrongCode = "The code is wrong or was already used."

    /// The throttle's key for `userID`'s wrong codes (`<kind>:<id>`, which no username can be).
    static func failureKey(_ userID: UUID) -> String {
        "mfa:\(userID.uuidString.lowercased())"
    }

    /// True when a password login of `userID` needs a second step: TOTP is confirmed.
    func isRequired(for userID: UUID) async throws -> Bool {
        try await totp.isConfirmed(userID)
    }

    /// What `userID` has (TOTP on, recovery codes left, passkeys), in one round trip; never a secret.
    func status(of userID: UUID) async throws -> MFAStatus {
        let row = try await db.query("""
            SELECT \(TOTPCredentialRepository.isOn(for: userID)) AS totp,
                   (SELECT count(*)::int FROM recovery_codes WHERE user_id = \(userID)) AS recovery_codes,
                   (SELECT count(*)::int FROM passkeys WHERE user_id = \(userID)) AS passkeys
            """).first
        guard let row else { return MFAStatus(totp: false, recoveryCodesRemaining: 0, passkeys: 0) }
        return MFAStatus(
            totp: try row.decode(column: "totp", as: Bool.self), recoveryCodesRemaining: try row.decode(column: "recovery_codes", as: Int.self),
            passkeys: try row.decode(column: "passkeys", as: Int.self))
    }

    /// The second factors `userID` can complete a login with.
    func methods(of userID: UUID) async throws -> [SecondFactorMethod] {
        let status = try await status(of: userID)
        guard status.totp else { return [] }
        var methods: [SecondFactorMethod] = status.recoveryCodesRemaining > 0 ? [.totp, .recoveryCode] : [.totp]
        if status.passkeys > 0 { methods.append(.passkey) }
        return methods
    }

    /// A new mfaToken for `user`'s login, carrying the `scopes` its first step asked for.
    func challenge(for user: User, scopes: [Scope]) async throws -> String {
        try await challenges.issue(for: user.id, scopes: scopes)
    }

    /// The login's second step: `proof` checked against the user `mfaToken` names. Throws a
    /// `SecondStepRefusal` (401: the token gone, a wrong code, or the fifth wrong code, which
    /// ends the token), or the throttle's 429.
    func complete(_ mfaToken: String, with proof: SecondFactorProof, _ request: Request) async throws -> SecondFactorSuccess {
        if case .passkey(let response) = proof { return try await complete(mfaToken, passkey: response, request) }
        guard let userID = try await challenges.user(of: mfaToken), let user = try await users.find(userID) else {
            audit.record(.mfaLoginFailed, request)
            throw Self.tokenGone
        }
        enum Outcome: Sendable { case gone, wrong(ended: Bool), accepted(AcceptedProof, [Scope]) }
        let outcome = try await admitted(user, request, failing: { if case .wrong = $0 { true } else { false } }) {
            try await db.withTransaction { tx -> Outcome in
                guard let pending = try await challenges.lock(mfaToken, on: tx), pending.userID == user.id else { return .gone }
                guard let accepted = try await check(proof, of: user.id, on: tx) else {
                    return .wrong(ended: try await challenges.fail(mfaToken, on: tx))
                }
                try await challenges.spend(mfaToken, on: tx)
                return .accepted(accepted, pending.scopes)
            }
        }
        switch outcome {
        case .gone:
            audit.record(.mfaLoginFailed, request, userID: user.id)
            throw Self.tokenGone
        case .wrong(let ended):
            audit.record(.mfaLoginFailed, request, userID: user.id, username: user.username)
            throw ended ? SecondStepRefusal.wrongCodeEndedToken : SecondStepRefusal.wrongCode
        case .accepted(let accepted, let scopes):
            recordSpent(accepted, user.id, request)
            return SecondFactorSuccess(
                user: user, scopes: scopes, amr: ["pwd"] + accepted.amr + ["mfa"], recoveryCodesRemaining: accepted.recoveryCodesRemaining)
        }
    }

    /// Checks `proof` for `user` outside a login (disabling TOTP, new recovery codes, a
    /// password change): the `amr` values it adds. Throws 403 for a wrong code, or the 429.
    @discardableResult
    func verify(_ proof: SecondFactorProof, of user: User, _ request: Request) async throws -> [String] {
        let accepted = try await admitted(user, request, failing: { $0 == nil }) {
            try await db.withTransaction { tx in try await check(proof, of: user.id, on: tx) }
        }
        guard let accepted else {
            audit.record(.secondFactorFailed, request, userID: user.id, username: user.username)
            throw Abort(.forbidden, reason: Self.wrongCode)
        }
        recordSpent(accepted, user.id, request)
        return accepted.amr
    }

    /// `proof` checked for `userID` on `runner`: TOTP against the confirmed secret, at the
    /// clock's step ±1 and after the last accepted step, then that step claimed; a recovery
    /// code spent. Nil when it does not prove anything.
    func check(_ proof: SecondFactorProof, of userID: UUID, on runner: any PostgresQueryable) async throws -> AcceptedProof? {
        switch proof {
        case .code(let code):
            guard let credential = try await totp.credential(of: userID, on: runner), credential.confirmed,
                  let step = TOTP(secret: credential.secret).verify(code, at: clock.now, after: credential.lastStep),
                  try await totp.accept(step: step, of: userID, on: runner)
            else { return nil }
            return AcceptedProof(amr: ["otp"], recoveryCodesRemaining: nil)
        case .recoveryCode(let code):
            guard let remaining = try await recoveryCodes.spend(code, of: userID, on: runner) else { return nil }
            return AcceptedProof(amr: [], recoveryCodesRemaining: remaining)
        case .passkey:
            return nil  // a passkey answers a ceremony's challenge, only in a login's second step (`complete`)
        }
    }

    /// Runs `body` as one attempt the login throttle admitted for `user` from the request's
    /// address: refused at once with 429 past a limit (the account's wrong codes, or the
    /// login throttle's counts); counted as a failure of both when `failed` says so of the
    /// result, forgotten otherwise (and when `body` throws: nothing was guessed).
    func admitted<T: Sendable>(
        _ user: User, _ request: Request, failing failed: (T) -> Bool, _ body: () async throws -> T
    ) async throws -> T {
        let address = request.clientAddress
        if let wait = try await failures.wait(key: Self.failureKey(user.id), address: address) {
            audit.record(.secondFactorThrottled, request, userID: user.id, username: user.username)
            throw LoginThrottle.refusal(retryAfter: wait)
        }
        let attempt = try await throttle.begin(username: user.username, address: address)
        guard attempt.id != nil else {
            audit.record(.secondFactorThrottled, request, userID: user.id, username: attempt.key)
            throw LoginThrottle.refusal(retryAfter: attempt.retryAfter ?? 1)
        }
        let result: T
        do {
            result = try await body()
        } catch {
            try? await throttle.release(attempt)
            throw error
        }
        if failed(result) {
            _ = try await failures.recordFailure(key: Self.failureKey(user.id), address: address)
        } else {
            try await throttle.release(attempt)
        }
        return result
    }

    private func recordSpent(_ accepted: AcceptedProof, _ userID: UUID, _ request: Request) {
        if accepted.recoveryCodesRemaining != nil { audit.record(.recoveryCodeUsed, request, userID: userID) }
    }
}
