import FoundationEssentials
import OneTimePasswords
import XCTest

final class TOTPTests: XCTestCase {
    /// The RFC 4226 / RFC 6238 test secret: the 20 ASCII bytes "12345678901234567890".
    private let rfcSecret = Array("12345678901234567890".utf8)

    /// RFC 4226 Appendix D: HOTP values for counters 0 to 9.
    func testRFC4226AppendixD() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        let hotp = HOTP(secret: rfcSecret)
        XCTAssertEqual((0..<10).map { hotp.code(counter: UInt64($0)) }, expected)
    }

    /// RFC 6238 Appendix B, the SHA-1 rows (8 digits), including the step after 2038 and after 2286.
    func testRFC6238AppendixBSHA1() {
        let vectors: [(Int64, Int64, String)] = [
            (59, 0x1, "94287082"),
            (1_111_111_109, 0x23523EC, "07081804"),
            (1_111_111_111, 0x23523ED, "14050471"),
            (1_234_567_890, 0x273EF07, "89005924"),
            (2_000_000_000, 0x3F940AA, "69279037"),
            (20_000_000_000, 0x27BC86AA, "65353130"),
        ]
        let totp = TOTP(secret: rfcSecret, digits: 8)
        for (time, step, code) in vectors {
            let date = Date(timeIntervalSince1970: TimeInterval(time))
            XCTAssertEqual(TOTP.step(at: date), step, "T = \(time)")
            XCTAssertEqual(totp.code(at: date), code, "T = \(time)")
            XCTAssertEqual(totp.verify(code, at: date, after: nil), step, "T = \(time)")
        }
    }

    func testSixDigitsIsTheDefault() {
        let date = Date(timeIntervalSince1970: 59)
        XCTAssertEqual(TOTP(secret: rfcSecret).digits, 6)
        XCTAssertEqual(TOTP(secret: rfcSecret).code(at: date), "287082", "the last 6 digits of 94287082")
    }

    /// RFC 6238 §5.2: the current step and one either side; two away is refused.
    func testWindowIsOneStepEitherSide() {
        let totp = TOTP(secret: TOTPSecret.generate())
        let now = Date(timeIntervalSince1970: 1_700_000_015)
        let current = TOTP.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            XCTAssertEqual(totp.verify(totp.code(step: current + offset), at: now, after: nil), current + offset)
        }
        for offset: Int64 in [-2, 2, -10] {
            let code = totp.code(step: current + offset)
            // A distant step's code can collide with a nearby one (1 in 10^6): only assert
            // refusal when it does not.
            let nearby = (-1...1).map { totp.code(step: current + Int64($0)) }
            guard !nearby.contains(code) else { continue }
            XCTAssertNil(totp.verify(code, at: now, after: nil), "offset \(offset)")
        }
    }

    /// The step boundary: 29.999 s into a step is still that step; 30 s is the next.
    func testStepBoundaries() {
        XCTAssertEqual(TOTP.step(at: Date(timeIntervalSince1970: 29.999)), 0)
        XCTAssertEqual(TOTP.step(at: Date(timeIntervalSince1970: 30)), 1)
        XCTAssertEqual(TOTP.step(at: Date(timeIntervalSince1970: -1)), -1)
    }

    /// ASVS 6.5.1: a code is usable once; so is any earlier step's code after it.
    func testReplayRefusedAfterLastAcceptedStep() throws {
        let totp = TOTP(secret: rfcSecret)
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let current = TOTP.step(at: now)
        let accepted = try XCTUnwrap(totp.verify(totp.code(step: current), at: now, after: nil))
        XCTAssertEqual(accepted, current)
        XCTAssertNil(totp.verify(totp.code(step: current), at: now, after: accepted), "the same code again")
        XCTAssertNil(totp.verify(totp.code(step: current - 1), at: now, after: accepted), "an earlier step")
        XCTAssertEqual(totp.verify(totp.code(step: current + 1), at: now, after: accepted), current + 1, "a later step")
        XCTAssertEqual(totp.verify(totp.code(step: current), at: now, after: current - 1), current)
    }

    func testMalformedCodesRefused() {
        let totp = TOTP(secret: rfcSecret)
        let date = Date(timeIntervalSince1970: 59)
        XCTAssertEqual(totp.verify("287082", at: date, after: nil), 1, "the well-formed code is accepted")
        let malformed = [
            "", "28708", "2870820", "28708a", " 287082", "287082 ", "287082\n", "+28708", "-28708",
            "２８７０８２",  // fullwidth digits
            "٢٨٧٠٨٢",  // Arabic-Indic digits
            "28708\u{0}2", "2870８2",
        ]
        for code in malformed {
            XCTAssertNil(totp.verify(code, at: date, after: nil), "\(code.debugDescription)")
        }
    }

    func testSecretsAre160RandomBits() {
        let first = TOTPSecret.generate(), second = TOTPSecret.generate()
        XCTAssertEqual(first.count, 20)
        XCTAssertEqual(second.count, 20)
        XCTAssertNotEqual(first, second)
    }
}
