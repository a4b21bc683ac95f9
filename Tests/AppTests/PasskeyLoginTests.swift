import AppTesting
import Crypt
import Foundation
import Postgres
import TILWire
import Web
import WebAuthn
import WebAuthnTesting
import WebTesting
import XCTest
@testable import App

/// Passkeys registered and used through the real app with the tests' software authenticator:
/// ES256, EdDSA and RS256, each a whole login on its own.
final class PasskeyLoginTests: XCTestCase {
    func testEachAlgorithmRegistersAndLogsIn() async throws {
        try await withTestApp { app in
            let ceremony = PasskeyCeremony(client: app.client)
            for algorithm in [COSEAlgorithm.es256, .edDSA, .rs256] {
                let username = "user-\(algorithm.rawValue)"
                let user = try await User.create(username: username, on: app)
                let token = try await app.client.session(username, scope: "account").value
                var authenticator = try PasskeyCeremony.authenticator(algorithm)
                let summary = try await ceremony.registered(&authenticator, token: token, name: "Key \(algorithm)")
                XCTAssertEqual(summary.credentialId, Base64URL.encode(authenticator.credentialID))
                XCTAssertNil(summary.lastUsedAt)
                let stored = try await app.til.db.query("SELECT algorithm, sign_count, attestation_format, transports::text AS t FROM passkeys WHERE id = \(summary.id)")
                XCTAssertEqual(try stored.first?.decode(column: "algorithm", as: Int.self), algorithm.rawValue)
                XCTAssertEqual(try stored.first?.decode(column: "attestation_format", as: String.self), "none")
                XCTAssertEqual(try stored.first?.decode(column: "t", as: String.self), "{internal,hybrid}")

                for username in [nil, username.uppercased()] {  // discoverable, then named
                    let login = try await ceremony.logIn(&authenticator, username: username)
                    XCTAssertEqual(login.status.code, 200, "\(algorithm) \(username ?? "discoverable"): \(login.bodyString)")
                    XCTAssertEqual(login.headers["Cache-Control"], "no-store")
                    let answer = try login.decode(LoginAnswer.self)
                    let me = try await app.getResponse(to: "/api/users/me", decodeTo: User.Public.self, auth: .bearer(answer.value))
                    XCTAssertEqual(me.id, user.id)
                    XCTAssertEqual(Set(answer.scopes), Set(Scope.known.map(\.rawValue)))
                }
                let count = try await app.til.db.query("SELECT sign_count, last_used_at IS NOT NULL AS used FROM passkeys WHERE id = \(summary.id)")
                XCTAssertEqual(try count.first?.decode(column: "sign_count", as: Int64.self), 2, "each login's counter recorded")
                XCTAssertEqual(try count.first?.decode(column: "used", as: Bool.self), true)
            }
        }
    }

    func testScopesAreAskedForAsInAPasswordLogin() async throws {
        try await withTestApp { app in
            _ = try await User.create(username: "scoped", on: app)
            let token = try await app.client.session("scoped", scope: "account").value
            let ceremony = PasskeyCeremony(client: app.client)
            var authenticator = try PasskeyCeremony.authenticator()
            try await ceremony.registered(&authenticator, token: token)
            let narrow = try await ceremony.logIn(&authenticator, scope: "acronyms:write")
            XCTAssertEqual(try narrow.decode(LoginAnswer.self).scopes, ["acronyms:write"])
            let refused = try await ceremony.logIn(&authenticator, scope: "clients:write")
            XCTAssertEqual(refused.status.code, 400, "clients:write is an administrator's: \(refused.bodyString)")
            let unknown = try await ceremony.logIn(&authenticator, scope: "everything")
            XCTAssertEqual(unknown.status.code, 400, unknown.bodyString)
        }
    }

    /// A synced passkey's counter stays 0: accepted each time. One stored without backup
    /// eligibility that comes back with it (synced after registration) is accepted, recorded
    /// and audited; backed up without eligibility is refused.
    func testSyncedPasskeysAndBackupEligibilityGainedLater() async throws {
        let capture = LogCapture()
        try await withTestApp(logger: capture.logger()) { app in
            _ = try await User.create(username: "synced", on: app)
            let token = try await app.client.session("synced", scope: "account").value
            let ceremony = PasskeyCeremony(client: app.client)
            var synced = try PasskeyCeremony.authenticator(countsSignatures: false)
            let summary = try await ceremony.registered(&synced, token: token)
            for attempt in 1...2 {
                let login = try await ceremony.logIn(&synced)
                XCTAssertEqual(login.status.code, 200, "counter 0, attempt \(attempt): \(login.bodyString)")
            }
            synced.backupEligible = true
            synced.backedUp = true
            let gained = try await ceremony.logIn(&synced)
            XCTAssertEqual(gained.status.code, 200, gained.bodyString)
            let row = try await app.til.db.query("SELECT backup_eligible, backed_up FROM passkeys WHERE id = \(summary.id)")
            XCTAssertEqual(try row.first?.decode(column: "backup_eligible", as: Bool.self), true)
            XCTAssertEqual(try row.first?.decode(column: "backed_up", as: Bool.self), true)
            XCTAssertEqual(capture.lines.filter { $0.metadata["event"] == "passkey.backup-eligibility-gained" }.count, 1)

            let listed = try await app.getResponse(to: "/api/users/me/passkeys", decodeTo: [PasskeySummary].self, auth: .bearer(token))
            XCTAssertEqual(listed.first?.backedUp, true)
            let lost = try await ceremony.logIn(&synced, tampering: Tampering { $0.backupEligible = false; $0.backedUp = false })
            assertRefused(lost, 401, mentioning: "without BE", "BE 1 → 0")
            let inconsistent = try await ceremony.logIn(&synced, tampering: Tampering { $0.backupEligible = false })
            assertRefused(inconsistent, 401, mentioning: "backup", "BS without BE")
        }
    }

    /// A username in any Unicode spelling names the same user's passkeys; the passkey's name
    /// is stored as NFC.
    func testUnicodeUsernamesAndPasskeyNames() async throws {
        try await withTestApp { app in
            let user = try await User.create(username: "Zoë-Ærøskøbing", on: app)
            let token = try await app.client.session("Zoë-Ærøskøbing", scope: "account").value
            let ceremony = PasskeyCeremony(client: app.client)
            var authenticator = try PasskeyCeremony.authenticator(.edDSA)
            let summary = try await ceremony.registered(&authenticator, token: token, name: "  Te\u{301}le\u{301}phone\u{3000}")
            XCTAssertEqual(summary.name, "Téléphone")
            XCTAssertTrue(summary.name.unicodeScalars.elementsEqual("T\u{E9}l\u{E9}phone".unicodeScalars))
            for spelling in ["Zoe\u{308}-Ærøskøbing", "ZOË-ÆRØSKØBING", "zoë-ærøskøbing"] {
                let login = try await ceremony.logIn(&authenticator, username: spelling)
                XCTAssertEqual(login.status.code, 200, "\(spelling): \(login.bodyString)")
                XCTAssertEqual(try login.decode(LoginAnswer.self).user.id, user.id)
            }
            let lookalike = try await ceremony.logIn(&authenticator, username: "Zoe-Ærøskøbing")
            assertRefused(lookalike, 401, mentioning: "not the named user's", "another name's decoy challenge")
        }
    }
}
