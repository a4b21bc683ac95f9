import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// One user code, spelled as people type it: the decision is NFKC, then dashes and spaces of
/// any script dropped and ASCII letters uppercased. Lookalikes from other scripts are refused,
/// never folded onto the letter they resemble.
final class DeviceSpellingTests: XCTestCase {
    func testTheNormalizationTable() {
        let code = "BCDFGHJK"
        for typed in ["BCDF-GHJK", "bcdf-ghjk", "BcDfGhJk", "bcdfghjk", " BCDF GHJK ", "BCDF\u{2010}GHJK", "BCDF\u{2013}GHJK",
                      "BCDF\u{00A0}GHJK", "ＢＣＤＦ－ＧＨＪＫ", "ｂｃｄｆｇｈｊｋ", "BCDF\u{3000}GHJK", "BC-DF-GH-JK"] {
            XCTAssertEqual(UserCode.normalized(typed), code, typed)
        }
        for typed in ["ВCDF-GHJK" /* Cyrillic В */, "BCDF-GHJΚ" /* Greek Κ */, "BCDF\u{200B}GHJK" /* zero-width space */,
                      "B\u{0301}CDF-GHJK" /* combining accent */, "ßBCDFGHJ", "BCDF-GHJ１", "BCDF-GHJＡ", "BCDF\u{0000}GHJK",
                      "BCDF/GHJK", "BCDF\nGHJK", "𝐁CDF-GHJK" /* NFKC folds mathematical bold to B: ASCII, accepted? */] {
            if typed.hasPrefix("𝐁") {
                XCTAssertEqual(UserCode.normalized(typed), code, "NFKC maps a mathematical B to B, a compatibility spelling")
            } else {
                XCTAssertNil(UserCode.normalized(typed), typed.debugDescription)
            }
        }
    }

    /// The same code typed four ways finds the same device on the page; a Cyrillic lookalike
    /// finds none.
    func testSpellingsOfOneCodeReachTheSameConsentPage() async throws {
        try await withTestApp { app in
            let start = try await app.client.startedDevice()
            let letters = start.userCode.replacingOccurrences(of: "-", with: "")
            let fullwidth = String(String.UnicodeScalarView(start.userCode.unicodeScalars.map {
                $0 == "-" ? "\u{FF0D}" : Unicode.Scalar($0.value + 0xFEE0)!
            }))
            let browser = BrowserClient(app.client)
            try await browser.signIn("admin")
            for typed in [start.userCode.lowercased(), letters, fullwidth, letters.prefix(4) + " " + letters.dropFirst(4)] {
                let consent = try await browser.enterUserCode(String(typed))
                XCTAssertEqual(consent.status, .ok, "\(typed): \(consent.bodyString)")
                XCTAssertEqual(try HTMLForm.only(in: consent).value("user_code"), start.userCode, "carried as shown")
            }
            let cyrillic = start.userCode.replacingOccurrences(of: "C", with: "С").replacingOccurrences(of: "B", with: "В")
            if cyrillic != start.userCode {
                let refused = try await browser.enterUserCode(cyrillic)
                XCTAssertEqual(refused.status, .badRequest, cyrillic)
            }
            let approved = try await browser.decideDevice(fullwidth, approve: true)
            XCTAssertEqual(approved.status, .ok, approved.bodyString)
            let status = try await app.deviceStatus(start.deviceCode)
            XCTAssertEqual(status, "approved")
        }
    }
}
