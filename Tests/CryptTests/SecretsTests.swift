import Crypt
import XCTest

final class SecretsTests: XCTestCase {
    func testTokensAreLongRandomAndURLSafe() {
        let tokens = (0..<200).map { _ in SecureRandom.token() }
        XCTAssertEqual(Set(tokens).count, 200)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for token in tokens {
            XCTAssertEqual(token.count, 43)
            XCTAssertTrue(token.allSatisfy(alphabet.contains), token)
        }
    }

    func testBase64URLAgainstRFC4648Vectors() {
        XCTAssertEqual(Base64URL.encode(Array("".utf8)), "")
        XCTAssertEqual(Base64URL.encode(Array("f".utf8)), "Zg")
        XCTAssertEqual(Base64URL.encode(Array("fo".utf8)), "Zm8")
        XCTAssertEqual(Base64URL.encode(Array("foo".utf8)), "Zm9v")
        XCTAssertEqual(Base64URL.encode(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(Base64URL.encode([0xFB, 0xFF]), "-_8")
    }

    func testSHA256AgainstFIPSVectors() {
        XCTAssertEqual(SHA256.hex(of: "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: ""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hash(Array("abc".utf8)).count, 32)
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(ConstantTime.equals("secret", "secret"))
        XCTAssertFalse(ConstantTime.equals("secret", "secreT"))
        XCTAssertFalse(ConstantTime.equals("secret", "secret2"))
        XCTAssertTrue(ConstantTime.equals("", ""))
        XCTAssertFalse(ConstantTime.equals([1, 2, 3], [1, 2]))
    }

    func testWorkerPoolBoundsConcurrencyAndPropagatesErrors() async throws {
        struct Failure: Error {}
        let pool = WorkerPool(threadCount: 2)
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 { group.addTask { try await pool.run { index } } }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sum, (0..<50).reduce(0, +))
        do {
            _ = try await pool.run { () throws -> Int in throw Failure() }
            XCTFail("expected the job's error")
        } catch {
            XCTAssertTrue(error is Failure)
        }
    }
}
