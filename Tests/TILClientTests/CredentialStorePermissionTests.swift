import Foundation
import Glibc
import TILClient
import XCTest

/// Issue 17: "The credential store does not check the permissions of an existing folder or
/// file. Refuse group- or world-readable ones, as ssh does." The store neither reads nor writes
/// tokens in a folder or file that others can reach or that another user owns.
final class CredentialStorePermissionTests: XCTestCase {
    private var root: URL!
    private var store: FileCredentialStore!
    private var saved: StoredCredentials!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("til-perm-\(UUID().uuidString)")
        store = FileCredentialStore(directory: root.appendingPathComponent("til"))
        saved = StoredCredentials(server: "http://127.0.0.1:1", username: "u", credentials: [try Credential.sample()])
        let value = saved!
        try await store.update { $0 = value }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: root)
    }

    func testTheStoreRefusesAFolderOrFileOthersCanReach() async throws {
        let folder = store.directory.path, file = store.fileURL.path
        for (path, mode, fix) in [(folder, 0o750, 0o700), (folder, 0o701, 0o700), (file, 0o640, 0o600), (file, 0o604, 0o600)] {
            XCTAssertEqual(chmod(path, mode_t(mode)), 0)
            let expected = CredentialStoreError.accessibleByOthers(path: path, mode: mode, fix: "chmod \(String(fix, radix: 8)) \(path)")
            await assertRefused(expected)
            XCTAssertEqual(chmod(path, mode_t(fix)), 0)
        }
        let readable = try await store.load()
        XCTAssertEqual(readable, saved, "once fixed, the same tokens are read again")
        XCTAssertTrue(
            "\(CredentialStoreError.accessibleByOthers(path: file, mode: 0o644, fix: "chmod 600 \(file)"))".contains("`chmod 600 \(file)`"))
    }

    func testTheStoreRefusesAFolderOrFileOfAnotherUser() async throws {
        guard geteuid() == 0 else { throw XCTSkip("only root can give a file to another user") }
        let nobody: uid_t = 65_534
        for path in [store.fileURL.path, store.directory.path] {
            XCTAssertEqual(chown(path, nobody, gid_t.max), 0)
            await assertRefused(.ownedByAnotherUser(path: path, owner: Int(nobody)))
            XCTAssertEqual(chown(path, geteuid(), gid_t.max), 0)
        }
        let readable = try await store.load()
        XCTAssertEqual(readable, saved)
    }

    /// `load` and `update` both refuse with `expected`, and the file is left as it was.
    private func assertRefused(_ expected: CredentialStoreError, file: StaticString = #filePath, line: UInt = #line) async {
        let before = FileManager.default.contents(atPath: store.fileURL.path)
        do {
            _ = try await store.load()
            XCTFail("load read a store it should refuse: \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? CredentialStoreError, expected, file: file, line: line)
        }
        do {
            try await store.update { $0 = StoredCredentials() }
            XCTFail("update wrote a store it should refuse: \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? CredentialStoreError, expected, file: file, line: line)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: store.fileURL.path), before, "untouched", file: file, line: line)
    }
}
