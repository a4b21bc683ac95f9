import QRCode
import XCTest

final class QRCodeTests: XCTestCase {
    private let enrolmentURI = "otpauth://totp/TIL:zo%C3%AB?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=TIL"

    /// Version 1 holds 14 bytes in 8-bit mode at level M: "HELLO" is the smallest symbol.
    func testSmallTextIsVersionOne() throws {
        let code = try QRCode(encoding: "HELLO")
        XCTAssertEqual(code.version, 1)
        XCTAssertEqual(code.size, 21)
        XCTAssertTrue(code.modules.allSatisfy { $0.count == 21 }, "square")
    }

    func testSizeFollowsVersion() throws {
        for text in ["HELLO", enrolmentURI, String(repeating: "x", count: 1000)] {
            let code = try QRCode(encoding: text)
            XCTAssertTrue((1...40).contains(code.version))
            XCTAssertEqual(code.size, 17 + 4 * code.version)
            XCTAssertTrue(code.modules.allSatisfy { $0.count == code.size })
        }
        // An enrolment URI of about 90 bytes needs version 5 or 6 at level M.
        XCTAssertTrue((5...6).contains(try QRCode(encoding: enrolmentURI).version))
    }

    /// Finder patterns (7×7: dark ring, light ring, 3×3 dark core) in three corners, none in the fourth.
    func testFinderPatternsInThreeCorners() throws {
        let code = try QRCode(encoding: enrolmentURI)
        let far = code.size - 7
        XCTAssertTrue(hasFinder(code, row: 0, column: 0))
        XCTAssertTrue(hasFinder(code, row: 0, column: far))
        XCTAssertTrue(hasFinder(code, row: far, column: 0))
        XCTAssertFalse(hasFinder(code, row: far, column: far))
    }

    func testDeterministic() throws {
        XCTAssertEqual(try QRCode(encoding: enrolmentURI), try QRCode(encoding: enrolmentURI))
        XCTAssertNotEqual(try QRCode(encoding: enrolmentURI), try QRCode(encoding: enrolmentURI + "x"))
    }

    func testRefusals() {
        XCTAssertThrowsError(try QRCode(encoding: String(repeating: "x", count: 3000))) {
            XCTAssertEqual($0 as? QRCodeError, .tooLong)
        }
        XCTAssertThrowsError(try QRCode(encoding: "a\u{0}b")) { XCTAssertEqual($0 as? QRCodeError, .containsNUL) }
    }

    /// The terminal text decodes back to the same matrix, quiet zone and all.
    func testTerminalTextRoundTrips() throws {
        let code = try QRCode(encoding: enrolmentURI)
        let side = code.size + 2 * QRCode.quietZone
        for darkOnLight in [false, true] {
            let lines = code.terminalText(darkOnLight: darkOnLight).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertEqual(lines.count, (side + 1) / 2)
            var inked = [[Bool]]()
            for line in lines {
                XCTAssertEqual(line.count, side)
                inked.append(line.map { $0 == "█" || $0 == "▀" })
                inked.append(line.map { $0 == "█" || $0 == "▄" })
            }
            for row in 0..<side {
                for column in 0..<side {
                    let r = row - QRCode.quietZone, c = column - QRCode.quietZone
                    let dark = (0..<code.size).contains(r) && (0..<code.size).contains(c) && code.modules[r][c]
                    XCTAssertEqual(inked[row][column], dark == darkOnLight, "(\(row), \(column))")
                }
            }
        }
    }

    private func hasFinder(_ code: QRCode, row: Int, column: Int) -> Bool {
        (0..<7).allSatisfy { r in
            (0..<7).allSatisfy { c in
                let ring = min(r, c, 6 - r, 6 - c)  // 0: outer ring, 1: light ring, 2+: core
                return code.modules[row + r][column + c] == (ring != 1)
            }
        }
    }
}
