import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The proof that a reset request tells nothing by its timing: a login naming an
/// account with a verified address (a reset stored, a mail queued) and one naming nothing (a
/// decoy queued) take the same time, within 2×, over 20 interleaved tries each (two shared
/// cores are noisy: single tries prove nothing). A try takes about a millisecond, so on a busy
/// machine one preemption makes it 10 to 40 times longer, and the median of a series flips
/// between the two as soon as half its tries are preempted (measured under two `yes` loops:
/// series medians apart by up to 7×). The statistic is therefore the median of each pair's
/// ratio, the two tries of a pair running back to back under the same load: it stayed between
/// 0.68 and 1.30 there, while work of a different kind (a bcrypt for one of them) would put it
/// far outside 0.5–2. Each try comes from an address of its own (`TRUSTED_PROXIES`, so over
/// loopback), so the address's limit never answers instead.
final class PasswordResetTimingTests: XCTestCase {
    func testAnUnknownLoginTakesAsLongAsAKnownOne() async throws {
        try await withTestApp(.live, settings: ["TRUSTED_PROXIES": "127.0.0.1"]) { app in
            var accounts: [String] = []
            for _ in 0..<20 { accounts.append(try await app.userWithVerifiedEmail().user.username) }
            func request(_ login: String, from address: String) async throws -> Double {
                try await seconds {
                    let answer = try await app.requestReset(login, headers: ["X-Forwarded-For": address])
                    XCTAssertEqual(answer.status.code, 202, answer.bodyString)
                }
            }
            for warmUp in 0..<3 { _ = try await request("warm-up-\(warmUp)", from: "192.0.2.\(warmUp + 1)") }
            var known: [Double] = [], unknown: [Double] = []
            for (index, account) in accounts.enumerated() {  // which goes first alternates
                if index.isMultiple(of: 2) { known.append(try await request(account, from: "203.0.113.\(index + 1)")) }
                unknown.append(try await request("nobody-\(index)@mail.example", from: "198.51.100.\(index + 1)"))
                if !index.isMultiple(of: 2) { known.append(try await request(account, from: "203.0.113.\(index + 1)")) }
            }
            let mails = try await app.number("SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'password-reset' AND NOT decoy")
            XCTAssertEqual(mails, 20, "every known try did the real work")
            // Each pair ran back to back, under the same load: the median of the pairs' ratios.
            let pairedRatio = median(zip(unknown, known).map { $0 / $1 })
            let report = String(
                format: "median of unknown/known per pair %.2f (medians: unknown %.2f ms, known %.2f ms)",
                pairedRatio, median(unknown) * 1000, median(known) * 1000)
            XCTAssertLessThan(pairedRatio, 2, report)
            XCTAssertGreaterThan(pairedRatio, 0.5, report)
        }
    }
}
