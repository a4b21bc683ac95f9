import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rule ssh applies to `~/.ssh` and private keys, for the folder and the file that hold
/// tokens: they belong to the user running the client, and nobody else may read, write or
/// enter them. One that breaks the rule is refused, never quietly repaired — the tokens in it
/// may already be known to others, and the person should know that.
enum PrivatePath {
    /// Checks `info`, the status of `path`: this user's, with no group or other permission.
    static func check(_ info: stat, path: String, isDirectory: Bool) throws {
        guard info.st_uid == geteuid() else {
            throw CredentialStoreError.ownedByAnotherUser(path: path, owner: Int(info.st_uid))
        }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw CredentialStoreError.accessibleByOthers(path: path, mode: mode, fix: "chmod \(isDirectory ? "700" : "600") \(path)")
        }
    }

    /// Checks the folder at `path`; false when there is none.
    static func checkFolder(_ path: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw CredentialStoreError.failed("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw CredentialStoreError.failed("\(path) is not a folder") }
        try check(info, path: path, isDirectory: true)
        return true
    }

    /// The contents of the file at `path`, checked through the descriptor they are read from
    /// (so the file checked is the file read); nil when there is none.
    static func readFile(_ path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CredentialStoreError.failed("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CredentialStoreError.failed("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        try check(info, path: path, isDirectory: false)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CredentialStoreError.failed("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
