import Foundation
import Glibc
import TILClient
import XCTest

/// The file store: owner-only files, atomic writes, one update at a time across stores.
final class FileCredentialStoreTests: XCTestCase {
    private var root: URL!

    override func setUp() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("til-store-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: root)
    }

    private func credential(scopes: [Scope] = Scope.known) throws -> Credential {
        try Credential.sample(scopes: scopes)
    }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testFilesAreTheOwnersAloneAndWrittenWhole() async throws {
        let store = FileCredentialStore(directory: root.appendingPathComponent("til"))
        let saved = try credential()
        try await store.update { $0 = StoredCredentials(server: "http://127.0.0.1:1", username: "u", credentials: [saved]) }

        XCTAssertEqual(try mode(store.directory), 0o700)
        XCTAssertEqual(try mode(store.fileURL), 0o600)
        let loaded = try await store.load()
        XCTAssertEqual(loaded.credentials, [saved])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])

        // A rewrite stays owner-only (a new file, 0600 from its creation, renamed over the old).
        let other = try credential(scopes: [.account])
        try await store.update { _ = $0.put(other) }
        XCTAssertEqual(try mode(store.fileURL), 0o600)

        try await store.clear()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.fileURL.path), "no tokens on disk after a logout")
    }

    func testTheDefaultFolderFollowsXDGThenHome() {
        XCTAssertEqual(FileCredentialStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/h"]).path, "/x/config/til")
        XCTAssertEqual(FileCredentialStore.defaultDirectory(environment: ["HOME": "/h"]).path, "/h/.config/til")
        XCTAssertEqual(FileCredentialStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path, "/h/.config/til")
    }

    func testUpdatesOfOneFolderRunOneAtATime() async throws {
        let folder = root.appendingPathComponent("til")
        let first = FileCredentialStore(directory: folder)
        let second = FileCredentialStore(directory: folder)
        let saved = try credential()
        let firstUpdate = Task {
            try await first.update { stored -> ContinuousClock.Instant in
                try await Task.sleep(for: .milliseconds(300))
                stored = StoredCredentials(server: "s", credentials: [saved])
                return ContinuousClock.now
            }
        }
        try await pause(0.05)
        let (secondSaw, secondStarted) = try await second.update { stored in (stored.credentials, ContinuousClock.now) }
        let firstEnded = try await firstUpdate.value
        XCTAssertGreaterThanOrEqual(secondStarted, firstEnded, "the second update waited for the lock")
        XCTAssertEqual(secondSaw, [saved], "and read what the first one wrote")
    }

    func testAnUnreadableFileIsReportedNotIgnored() async throws {
        let store = FileCredentialStore(directory: root.appendingPathComponent("til"))
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("not json".utf8).write(to: store.fileURL)
        XCTAssertEqual(chmod(store.fileURL.path, 0o600), 0)
        do {
            _ = try await store.load()
            XCTFail("garbage is not credentials")
        } catch {
            XCTAssertTrue("\(error)".contains("is not a credentials file"), "\(error)")
        }
    }

    func testCredentialsStoredBeforeOriginsWereRecordedKeepTheirServer() async throws {
        let store = FileCredentialStore(directory: root.appendingPathComponent("til"))
        let saved = try credential()
        try await store.update { $0 = StoredCredentials(server: "http://127.0.0.1:8080", username: "u", credentials: [saved]) }
        // The file as an earlier client wrote it: the same, without "origins".
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any])
        json["credentials"] = (json["credentials"] as? [[String: Any]])?.map { $0.filter { $0.key != "origins" } }
        try JSONSerialization.data(withJSONObject: json).write(to: store.fileURL)
        XCTAssertEqual(chmod(store.fileURL.path, 0o600), 0)

        let loaded = try await store.load()
        XCTAssertEqual(loaded.credentials.map(\.accessToken), [saved.accessToken])
        XCTAssertEqual(loaded.credentials.map(\.origins), [[try XCTUnwrap(Origin(URL(string: "http://127.0.0.1:8080")!))]],
                       "bound to the server they were kept for, as the earlier client bound them")
    }
}
