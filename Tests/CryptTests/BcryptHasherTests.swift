import Crypt
import Threads
import XCTest

final class BcryptHasherTests: XCTestCase {
    func testHashAndVerifyOnThePoolConcurrently() async throws {
        let hasher = BcryptHasher(cost: 4)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let hash = try await hasher.hash("pw\(index)")
                    let right = try await hasher.verify("pw\(index)", created: hash)
                    let wrong = try await hasher.verify("pw\(index + 1)", created: hash)
                    return right && !wrong && hash.hasPrefix("$2b$04$")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: true, count: 16))
    }

    func testVerifiesHashesFromOtherImplementations() async throws {
        let hasher = BcryptHasher(cost: 4)
        for (password, hash) in BcryptTests.vectors {
            let matches = try await hasher.verify(password, created: hash)
            XCTAssertTrue(matches, hash)
        }
    }

    func testBadInputThrowsWithoutQueueing() async throws {
        let pool = WorkerPool(threadCount: 1)
        await assertThrows(.passwordTooLong) { try await BcryptHasher(cost: 4, pool: pool).hash(String(repeating: "a", count: 73)) }
        await assertThrows(.passwordContainsNUL) { try await BcryptHasher(cost: 4, pool: pool).hash("a\u{0}") }
        await assertThrows(.invalidCost(32)) { try await BcryptHasher(cost: 32, pool: pool).hash("a") }
        await assertThrows(.passwordTooLong) {
            _ = try await BcryptHasher(pool: pool).verify(String(repeating: "a", count: 73), created: BcryptTests.vectors[0].hash)
        }
        let malformed = try await BcryptHasher(pool: pool).verify("password", created: "$2b$04$")
        XCTAssertFalse(malformed)
        XCTAssertEqual(BcryptHasher().cost, 12)
    }

    private func assertThrows(
        _ expected: BcryptError, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> some Any
    ) async {
        do {
            _ = try await body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? BcryptError, expected, file: file, line: line)
        }
    }
}
