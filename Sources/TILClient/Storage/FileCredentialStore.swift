public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Credentials in `credentials.json` under `$XDG_CONFIG_HOME/til/` (else `~/.config/til/`),
/// readable by their owner only.
///
/// - The folder is made with mode 0700, the file written with 0600. An existing folder or
///   file that another user owns, or that group or others may reach, is refused
///   (`CredentialStoreError`) for reading and writing alike, as ssh refuses such keys.
/// - Writes are atomic: a new file beside the old one (0600 from its creation), flushed,
///   then renamed over it — a reader sees the old tokens or the new, never half a file.
/// - `update` holds an exclusive `flock` on `credentials.lock` from read to write, so two
///   `til` commands started together refresh once: the second reads the first one's pair.
/// - An empty store is no file at all: logging out leaves no token on disk.
public struct FileCredentialStore: CredentialStore {
    public let directory: URL
    /// How long `update` waits for another process's refresh before giving up.
    public var lockTimeout: Duration = .seconds(30)

    public init(directory: URL) {
        self.directory = directory
    }

    /// The store under `$XDG_CONFIG_HOME/til/` or `~/.config/til/`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.defaultDirectory(environment: environment))
    }

    public static func defaultDirectory(environment: [String: String]) -> URL {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("til")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config").appendingPathComponent("til")
    }

    public var fileURL: URL { directory.appendingPathComponent("credentials.json") }
    var lockPath: String { directory.appendingPathComponent("credentials.lock").path }

    public func load() async throws -> StoredCredentials {
        guard try PrivatePath.checkFolder(directory.path), let data = try PrivatePath.readFile(fileURL.path) else {
            return StoredCredentials()
        }
        do {
            return try Self.decoder.decode(StoredCredentials.self, from: data)
        } catch {
            throw CredentialStoreError.failed("\(fileURL.path) is not a credentials file (delete it and log in again)")
        }
    }

    public func update<R: Sendable>(_ change: @Sendable (inout StoredCredentials) async throws -> R) async throws -> R {
        try makeDirectory()
        return try await FileLock(path: lockPath).withLock(timeout: lockTimeout) {
            let before = try await load()
            var value = before
            let result = try await change(&value)
            if value != before { try save(value) }
            return result
        }
    }

    /// Makes the folder (0700) unless there is one, which must be private.
    private func makeDirectory() throws {
        guard try !PrivatePath.checkFolder(directory.path) else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func save(_ value: StoredCredentials) throws {
        guard !value.isEmpty else {
            if unlink(fileURL.path) != 0, errno != ENOENT { throw CredentialStoreError.failed("cannot remove \(fileURL.path): \(String(cString: strerror(errno)))") }
            return
        }
        let data = try Self.encoder.encode(value)
        let temporary = fileURL.path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CredentialStoreError.failed("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        let synced = writeFully(fd, data) && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CredentialStoreError.failed("cannot write \(fileURL.path): \(reason)")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

/// Writes all of `data` to `fd`, through short writes and interrupts.
private func writeFully(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let count = write(fd, base + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
