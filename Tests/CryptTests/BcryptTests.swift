import Crypt
import XCTest

final class BcryptTests: XCTestCase {
    /// Hashes made by other implementations: OpenBSD / Openwall vectors ($2a$), PyPI bcrypt ($2b$),
    /// and the $2y$ spelling of the same hash (PHP's name for correct $2a$).
    func testKnownVectorsFromOtherImplementations() throws {
        let vectors: [(String, String)] = [
            ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
            ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
            ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
            ("vapor", "$2b$05$abcdefghijklmnopqrstuuKYAJaUVdzg/z8WdVhVv8HKMur24YaYC"),
            ("pässwörd", "$2b$04$0123456789ABCDEFGHIJKub1ugOfMyiyFg0BTLsJDU9mv7iifIBbi"),
            (String(repeating: "x", count: 72), "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW"),
            ("U*U", "$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ]
        for (password, hash) in vectors {
            XCTAssertTrue(try Bcrypt.verify(password, created: hash), hash)
            let wrong = password.isEmpty ? "!" : String(password.dropLast()) + "!"
            XCTAssertFalse(try Bcrypt.verify(wrong, created: hash), hash)
        }
    }

    func testRoundTripAndFormat() throws {
        let hash = try Bcrypt.hash("correct horse", cost: 4)
        XCTAssertTrue(hash.hasPrefix("$2b$04$"))
        XCTAssertEqual(hash.utf8.count, 60)
        XCTAssertTrue(try Bcrypt.verify("correct horse", created: hash))
        XCTAssertFalse(try Bcrypt.verify("correct horsf", created: hash))
        XCTAssertNotEqual(hash, try Bcrypt.hash("correct horse", cost: 4), "salts must differ")
    }

    func testDefaultCostIsTwelve() throws {
        XCTAssertTrue(try Bcrypt.hash("password").hasPrefix("$2b$12$"))
    }

    func testCostOutOfRange() {
        XCTAssertThrowsError(try Bcrypt.hash("p", cost: 3)) { XCTAssertEqual($0 as? BcryptError, .invalidCost(3)) }
        XCTAssertThrowsError(try Bcrypt.hash("p", cost: 32)) { XCTAssertEqual($0 as? BcryptError, .invalidCost(32)) }
    }

    func testSeventyTwoByteRule() throws {
        let exactly72 = String(repeating: "é", count: 36)  // 72 bytes
        XCTAssertTrue(try Bcrypt.verify(exactly72, created: try Bcrypt.hash(exactly72, cost: 4)))
        XCTAssertThrowsError(try Bcrypt.hash(exactly72 + "a", cost: 4)) { XCTAssertEqual($0 as? BcryptError, .passwordTooLong) }
        XCTAssertThrowsError(try Bcrypt.verify(exactly72 + "a", created: "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW"))
    }

    func testNULIsRejected() {
        XCTAssertThrowsError(try Bcrypt.hash("a\u{0}b", cost: 4)) { XCTAssertEqual($0 as? BcryptError, .passwordContainsNUL) }
    }

    func testMalformedHashesDoNotMatchOrCrash() throws {
        let malformed = [
            "", "$2b$", "$2b$04$", "$2b$04$short", "$2x$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",
            "$2b$99$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW", "$2b$0a$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6gW",
            "$2b$04$0123456789ABCDEFGHIJKuLYxWbTZrA9pRJwWQhpUTe0V4dxPp6g!", "plaintext", "*0", String(repeating: "$", count: 500),
        ]
        for hash in malformed {
            XCTAssertFalse(try Bcrypt.verify("password", created: hash), hash)
        }
    }

    func testHasherRunsOnThePoolConcurrently() async throws {
        let hasher = BcryptHasher(cost: 4)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let hash = try await hasher.hash("pw\(index)")
                    return try await hasher.verify("pw\(index)", created: hash)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: true, count: 16))
        do {
            _ = try await hasher.hash(String(repeating: "a", count: 73))
            XCTFail("expected passwordTooLong")
        } catch {
            XCTAssertEqual(error as? BcryptError, .passwordTooLong)
        }
    }
}
