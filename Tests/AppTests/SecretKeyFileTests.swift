import Crypt
import Foundation
import XCTest
@testable import App

/// Development's generated `SECRET_KEY` (`.til/secret-key`): made once with mode 0600, then
/// reused; processes starting together end with one key.
final class SecretKeyFileTests: XCTestCase {
    func testTheKeyIsCreatedOnceWithMode0600AndReused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("til-secret-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".til/secret-key").path
        let first = try SecretKeyFile(path: path).loadOrCreate()
        XCTAssertEqual(try SecretKeyFile(path: path).loadOrCreate(), first)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(SecretKey(text: try String(contentsOfFile: path, encoding: .utf8)), first)
    }

    func testRacingCreatorsAgreeOnOneKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("til-secret-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".til/secret-key").path
        let keys = try await withThrowingTaskGroup(of: SecretKey.self) { group in
            for _ in 0..<8 { group.addTask { try SecretKeyFile(path: path).loadOrCreate() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(Set(keys.map(\.text)).count, 1, "every creator returns the key that won")
    }

    func testAFileThatHoldsNoKeyIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("til-secret-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "not a key\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SecretKeyFile(path: path).loadOrCreate()) { error in
            XCTAssertTrue("\(error)".contains("does not hold a SECRET_KEY"), "\(error)")
        }
    }
}
