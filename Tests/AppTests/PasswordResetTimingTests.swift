import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The issue's proof that a reset request tells nothing by its timing: a login naming an
/// account with a verified address (a reset stored, a mail queued) and one naming nothing (a
/// decoy queued) take the same time, within 2×, compared by the medians of 20 interleaved
/// tries each (two shared cores are noisy: single tries prove nothing). Each try comes from
/// an address of its own (`TRUSTED_PROXIES`, so over loopback), so the address's limit never
/// answers instead.
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
            for (index, account) in accounts.enumerated() {
                known.append(try await request(account, from: "203.0.113.\(index + 1)"))
                unknown.append(try await request("nobody-\(index)@mail.example", from: "198.51.100.\(index + 1)"))
            }
            let mails = try await app.number("SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'password-reset' AND NOT decoy")
            XCTAssertEqual(mails, 20, "every known try did the real work")
            let (knownMedian, unknownMedian) = (median(known), median(unknown))
            let report = "unknown median \(String(format: "%.2f", unknownMedian * 1000)) ms vs known median \(String(format: "%.2f", knownMedian * 1000)) ms"
            XCTAssertLessThan(unknownMedian, knownMedian * 2, report)
            XCTAssertGreaterThan(unknownMedian, knownMedian / 2, report)
        }
    }
}
