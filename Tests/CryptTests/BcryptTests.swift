import Crypt
import XCTest

final class BcryptTests: XCTestCase {
    /// Hashes made by other implementations (each also checked with PyPI bcrypt 5.0.0):
    /// Openwall/OpenBSD test vectors (`$2a$`), PyPI bcrypt (`$2b$`), PHP's manual (`$2y$`).
    static let vectors: [(password: String, hash: String)] = [
        ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
        ("vapor", "$2b$05$abcdefghijklmnopqrstuuKYAJaUVdzg/z8WdVhVv8HKMur24YaYC"),
        ("pässwörd", "$2b$04$0123456789ABCDEFGHIJKub1ugOfMyiyFg0BTLsJDU9mv7iifIBbi"),
        ("ünïcødé 🔑", "$2b$05$Qx3bO5hZAhm4L6GElkUrTe9Ov75WSdURtpaEX6oSipFoWrytJZdam"),
        (String(repeating: "x", count: 72), "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW"),
        ("rasmuslerdorf", "$2y$07$BCryptRequires22Chrcte/VlQH0piJtjXl.0t1XkA8pw9dMXTpOq"),
        ("rasmuslerdorf", "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a"),
        // `$2y$` is PHP's name for correct `$2a$`: the same digest under either prefix.
        ("U*U", "$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ("U*U", "$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
    ]

    func testKnownVectorsFromOtherImplementations() throws {
        for (password, hash) in Self.vectors {
            XCTAssertTrue(try Bcrypt.verify(password, created: hash), hash)
            let wrong = password.isEmpty ? "!" : String(password.dropLast()) + "!"
            XCTAssertFalse(try Bcrypt.verify(wrong, created: hash), hash)
        }
    }

    func testRoundTripAtLowCost() throws {
        let hash = try Bcrypt.hash("correct horse", cost: 4)
        XCTAssertTrue(hash.hasPrefix("$2b$04$"), hash)
        XCTAssertEqual(hash.utf8.count, 60)
        XCTAssertTrue(try Bcrypt.verify("correct horse", created: hash))
        XCTAssertFalse(try Bcrypt.verify("correct horsf", created: hash))
        XCTAssertFalse(try Bcrypt.verify("", created: hash))
        XCTAssertNotEqual(hash, try Bcrypt.hash("correct horse", cost: 4), "salts must differ")
        let empty = try Bcrypt.hash("", cost: 4)
        XCTAssertTrue(try Bcrypt.verify("", created: empty), "hashing the empty password is the caller's policy")
    }

    func testDefaultCostIsTwelveAndIsPassedToLibcrypt() throws {
        XCTAssertEqual(Bcrypt.defaultCost, 12)
        XCTAssertTrue(try Bcrypt.hash("password").hasPrefix("$2b$12$"))
        XCTAssertTrue(try Bcrypt.hash("password", cost: 5).hasPrefix("$2b$05$"))
    }

    func testCostOutOfRangeIsAnError() {
        for cost in [-1, 0, 3, 32, 100] {
            XCTAssertThrowsError(try Bcrypt.hash("p", cost: cost)) { XCTAssertEqual($0 as? BcryptError, .invalidCost(cost)) }
        }
        XCTAssertEqual(Bcrypt.costs, 4...31)
    }

    /// bcrypt reads 72 bytes. Other implementations silently ignore the rest; we refuse it.
    func testSeventyTwoByteRule() throws {
        let ascii72 = String(repeating: "a", count: 72)
        XCTAssertTrue(try Bcrypt.verify(ascii72, created: try Bcrypt.hash(ascii72, cost: 4)))
        XCTAssertThrowsError(try Bcrypt.hash(ascii72 + "a", cost: 4)) { XCTAssertEqual($0 as? BcryptError, .passwordTooLong) }

        let twoByte72 = String(repeating: "é", count: 36)  // counted in UTF-8 bytes, not characters
        XCTAssertEqual(twoByte72.utf8.count, 72)
        XCTAssertTrue(try Bcrypt.verify(twoByte72, created: try Bcrypt.hash(twoByte72, cost: 4)))
        XCTAssertThrowsError(try Bcrypt.hash(twoByte72 + "a", cost: 4)) { XCTAssertEqual($0 as? BcryptError, .passwordTooLong) }

        // Openwall's vector: made from 98 bytes, of which bcrypt used 72.
        let long = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored"
        let hash = "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        XCTAssertTrue(try Bcrypt.verify(String(long.prefix(72)), created: hash))
        XCTAssertThrowsError(try Bcrypt.verify(long, created: hash)) { XCTAssertEqual($0 as? BcryptError, .passwordTooLong) }
    }

    func testNULInsideThePasswordIsRejected() {
        XCTAssertThrowsError(try Bcrypt.hash("a\u{0}b", cost: 4)) { XCTAssertEqual($0 as? BcryptError, .passwordContainsNUL) }
        XCTAssertThrowsError(try Bcrypt.verify("U*U\u{0}", created: Self.vectors[0].hash)) {
            XCTAssertEqual($0 as? BcryptError, .passwordContainsNUL)
        }
    }

    func testMalformedHashesMatchNothingAndDoNotCrash() throws {
        let good = "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW"
        let malformed = [
            "", "$", "$2b$", "$2b$04$", "$2b$04$short", String(good.dropLast()), good + "x",
            "$2x$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",  // buggy-era prefix
            "$2$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gWx",
            "$2b$03$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",  // cost too low
            "$2b$32$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",  // cost too high
            "$2b$99$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",
            "$2b$0a$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",
            "$2b$+4$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",
            "$2b$4$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gWx",
            "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6g!",
            "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6g\u{0}",
            "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gé",
            "*0", "*1", "plaintext", String(repeating: "$", count: 500), String(repeating: "a", count: 60),
            // Other crypt(3) schemes libcrypt would happily check: refused, no downgrade.
            "$6$abcdefgh$yVfUwsw5T.JApa8POvClA1pQ5peiq97DUNyXCZN5IrF.BMSkiaLQ5kvpuEm/VQ1Tvh/KV2TcaWh8qinoW5dhA1",
            "$1$abcdefgh$G//4keteveJp0qb8z2DxG/",
        ]
        for hash in malformed {
            XCTAssertFalse(try Bcrypt.verify("password", created: hash), hash)
            XCTAssertFalse(try Bcrypt.verify("", created: hash), hash)
        }
        // Well-formed but for a different password.
        XCTAssertFalse(try Bcrypt.verify("password", created: good))
    }

    func testErrorsDescribeWithoutThePassword() {
        XCTAssertEqual(BcryptError.passwordTooLong.description, "Password is longer than 72 bytes.")
        XCTAssertEqual(BcryptError.invalidCost(3).description, "bcrypt cost 3 is outside 4...31.")
    }
}
